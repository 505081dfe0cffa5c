import Testing
import WebImage
import WebImageTesting

/// `PixelStoragePool`: reuse, the budget, LRU order, and value semantics under sharing. Every test
/// uses its own pool (the shared one is process-wide state other tests use at the same time).
@Suite("PixelStoragePool")
struct PixelStoragePoolTests {
    static let mebibyte = 1 << 20

    /// Where an array's storage starts.
    static func address(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func aRecycledArrayIsHandedOutAgainWithTheRequestedCount() {
        let pool = PixelStoragePool(budget: 8 * Self.mebibyte)
        let array = [UInt8](repeating: 1, count: Self.mebibyte)
        let address = Self.address(array)
        pool.recycle(consume array)  // the pool's is the only reference
        #expect(pool.statistics.arrayCount == 1 && pool.statistics.bytesHeld >= Self.mebibyte)

        // A little smaller fits the same storage (within an eighth); the count is exact.
        let taken = pool.take(byteCount: Self.mebibyte - 4000)
        #expect(Self.address(taken) == address)
        #expect(taken.count == Self.mebibyte - 4000)
        #expect(pool.statistics.arrayCount == 0 && pool.statistics.reuseCount == 1)

        // Growing back within the capacity keeps the storage too.
        pool.recycle(consume taken)
        let again = pool.take(byteCount: Self.mebibyte)
        #expect(Self.address(again) == address && again.count == Self.mebibyte)
        #expect(pool.statistics.sharedCount == 0)
    }

    @Test func aMuchSmallerOrLargerRequestAllocates() {
        let pool = PixelStoragePool(budget: 8 * Self.mebibyte)
        let array = [UInt8](repeating: 1, count: Self.mebibyte)
        let address = Self.address(array)
        pool.recycle(consume array)
        let small = pool.take(byteCount: Self.mebibyte / 2)  // would pin twice its size
        let large = pool.take(byteCount: 2 * Self.mebibyte)  // does not fit
        #expect(Self.address(small) != address && Self.address(large) != address)
        #expect(small.count == Self.mebibyte / 2 && large.count == 2 * Self.mebibyte)
        #expect(pool.statistics.allocationCount == 2 && pool.statistics.arrayCount == 1)
    }

    @Test func theBudgetHoldsAndTheLeastRecentlyRecycledGoFirst() {
        let pool = PixelStoragePool(budget: 3 * Self.mebibyte + Self.mebibyte / 2)
        var addresses: [UInt] = []
        for index in 0..<5 {
            let array = [UInt8](repeating: UInt8(index), count: Self.mebibyte)
            addresses.append(Self.address(array))
            pool.recycle(consume array)
            #expect(pool.statistics.bytesHeld <= pool.budget)
        }
        let statistics = pool.statistics
        #expect(statistics.arrayCount == 3 && statistics.droppedCount == 2)
        #expect(statistics.peakBytesHeld <= pool.budget)
        // The three most recent remain, most recent first.
        let taken = (0..<3).map { _ in Self.address(pool.take(byteCount: Self.mebibyte)) }
        #expect(taken == [addresses[4], addresses[3], addresses[2]])
    }

    @Test func tooSmallTooLargeAndDuplicateArraysAreNotKept() {
        let pool = PixelStoragePool(budget: 2 * Self.mebibyte)
        pool.recycle([UInt8](repeating: 0, count: PixelStoragePool.minimumByteCount / 2))
        pool.recycle([UInt8](repeating: 0, count: 3 * Self.mebibyte))
        #expect(pool.statistics.arrayCount == 0 && pool.statistics.droppedCount == 1)

        // Two values sharing one storage: held once.
        let array = [UInt8](repeating: 5, count: Self.mebibyte)
        let twin = array
        pool.recycle(array)
        pool.recycle(twin)
        #expect(pool.statistics.arrayCount == 1 && pool.statistics.recycledCount == 1)
    }

    @Test func aBudgetOfZeroKeepsNothingAndLoweringTheBudgetEvicts() {
        let pool = PixelStoragePool(budget: 4 * Self.mebibyte)
        for _ in 0..<3 { pool.recycle([UInt8](repeating: 0, count: Self.mebibyte)) }
        #expect(pool.statistics.arrayCount == 3)
        pool.budget = Self.mebibyte + Self.mebibyte / 2
        #expect(pool.statistics.arrayCount == 1 && pool.statistics.bytesHeld <= pool.budget)
        pool.budget = 0
        #expect(pool.statistics.arrayCount == 0 && pool.statistics.bytesHeld == 0)
        pool.recycle([UInt8](repeating: 0, count: Self.mebibyte))
        #expect(pool.statistics.arrayCount == 0)
    }

    @Test func aSharedArrayIsNeverWrittenUnderItsOtherOwner() {
        let pool = PixelStoragePool(budget: 8 * Self.mebibyte)
        let owner = PixelBuffer(width: 512, height: 512, alphaMode: .straight, fill: RGBA8(r: 7, g: 7, b: 7, a: 7))
        pool.recycle(owner)  // still held by `owner`: only shared
        let reused = PixelBuffer(width: 512, height: 512, alphaMode: .straight, storage: pool) { out in
            out.update(repeating: 9)
        }
        #expect(reused.bytes.allSatisfy { $0 == 9 })
        #expect(owner.bytes.allSatisfy { $0 == 7 })
        #expect(pool.statistics.sharedCount == 1 && pool.statistics.reuseCount == 1)
        #expect(Self.address(reused.bytes) != Self.address(owner.bytes))
    }

    @Test func concurrentTakersNeverSeeEachOthersWrites() async {
        let pool = PixelStoragePool(budget: 16 * Self.mebibyte)
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    var kept: [PixelBuffer] = []
                    for round in 0..<40 {
                        let value = UInt8(truncatingIfNeeded: worker * 40 + round)
                        let buffer = PixelBuffer(width: 256, height: 256, alphaMode: .straight, storage: pool) {
                            $0.update(repeating: value)
                        }
                        await Task.yield()
                        if !buffer.bytes.allSatisfy({ $0 == value }) { failures += 1 }
                        // Recycle while still holding it half of the time: the next taker must copy.
                        pool.recycle(buffer)
                        if round.isMultiple(of: 2) { kept.append(buffer) }
                        for old in kept where old.bytes.first != old.bytes.last { failures += 1 }
                    }
                    for (index, old) in kept.enumerated() {
                        let value = UInt8(truncatingIfNeeded: worker * 40 + index * 2)
                        if !old.bytes.allSatisfy({ $0 == value }) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(pool.statistics.bytesHeld <= pool.budget)
    }

    @Test func aThrowingInitialiserGivesTheStorageBack() {
        struct Refused: Error {}
        let pool = PixelStoragePool(budget: 8 * Self.mebibyte)
        #expect(throws: Refused.self) {
            _ = try PixelBuffer(width: 512, height: 512, alphaMode: .straight, storage: pool) { _ in throw Refused() }
        }
        #expect(pool.statistics.arrayCount == 1)
    }

    @Test func copiedPixelsAreEqualAndIndependent() {
        let pool = PixelStoragePool(budget: 8 * Self.mebibyte)
        pool.recycle([UInt8](repeating: 0xAB, count: 300 * 200 * 4))
        let source = ImageFixtures.translucentGradient(width: 300, height: 200)
        let copy = source.copied(storage: pool)
        #expect(copy == source)
        #expect(pool.statistics.reuseCount == 1)
        #expect(Self.address(copy.bytes) != Self.address(source.bytes))
    }

    @Test func evictedFramesGoToTheFramePoolsStorage() throws {
        let storage = PixelStoragePool(budget: 8 * Self.mebibyte)
        let frame = 256 * 256 * 4
        let pool = AnimatedFramePool(budget: 2 * frame, storage: storage)
        let source = InMemoryAnimation(
            frames: (0..<3).map {
                AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0, width: 256, height: 256), duration: 0.1)
            }, loopCount: 0)
        var animation: PooledAnimation? = PooledAnimation(source, pool: pool)
        try animation?.loadFrame(at: 0)
        try animation?.loadFrame(at: 1)
        #expect(storage.statistics.recycledCount == 0)
        try animation?.loadFrame(at: 2)  // evicts frame 0
        #expect(pool.statistics.evictionCount == 1)
        #expect(storage.statistics.recycledCount == 1 && storage.statistics.arrayCount == 1)
        // Released with the animation: freed, not recycled.
        animation = nil
        #expect(storage.statistics.recycledCount == 1)
    }
}
