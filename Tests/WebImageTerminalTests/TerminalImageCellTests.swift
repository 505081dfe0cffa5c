import Foundation
import Testing
import WebImage
import WebImageTerminal
import WebImageTesting

@Suite("The terminal image target", .timeLimit(.minutes(3)))
@MainActor
struct TerminalImageCellTests {
    /// What a screen wrote, one string per write.
    final class Recorder {
        var writes: [String] = []
        var done = 0
    }

    static func cell(
        _ recorder: Recorder, graphics: TerminalGraphics = .blocks, box: TerminalImageCell.Layout,
        clock: ManualClock = ManualClock(), onDone: @escaping @MainActor () -> Void = {}
    ) -> TerminalImageCell {
        let screen = TerminalScreen { recorder.writes.append($0) }
        return TerminalImageCell(
            layout: box, graphics: graphics, cellPixels: graphics.cellPixels(terminal: TerminalSize(columns: 80, rows: 24)),
            label: "pic.png", screen: screen, imageID: 3, clock: clock, onDone: onDone)
    }

    /// Lets the main actor run until `recorder` holds `count` writes (fails after 20 s).
    static func waitForWrites(_ recorder: Recorder, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while recorder.writes.count < count {
            try #require(ContinuousClock.now < deadline, "waited for \(count) writes, got \(recorder.writes.count)")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func loadingBoxProgressAndImageAreDrawnAtTheCellsPlace() {
        let recorder = Recorder()
        let cell = Self.cell(recorder, box: .init(row: 2, column: 5, columns: 12, rows: 5)) { recorder.done += 1 }
        cell.setImage(nil, for: .image, transition: nil)
        cell.startAnimatingIndicator()
        cell.updateIndicatorProgress(0.5)
        #expect(recorder.writes.count == 3)
        // Each box line is placed from the saved corner: restore, down, right.
        #expect(recorder.writes[2].hasPrefix("\u{1B}8\u{1B}[2B\u{1B}[5C┌ pic.png ─┐"))
        #expect(recorder.writes[2].contains("\u{1B}8\u{1B}[4B\u{1B}[5C│ ██░░ 50% │"))
        // A 4×2 image: cleared box, then two pixels rows = one cell row, centred (row 2+2, column 5+4).
        let pixels = PixelBuffer(width: 4, height: 2, alphaMode: .straight, fill: RGBA8(r: 1, g: 2, b: 3))
        cell.setImage(Image(pixels: pixels), for: .image, transition: .fade())
        #expect(recorder.writes.count == 5)
        #expect(recorder.writes[3].components(separatedBy: String(repeating: " ", count: 12)).count == 6)
        #expect(recorder.writes[4] == "\u{1B}8\u{1B}[4B\u{1B}[9C\u{1B}[48;2;1;2;3m\u{1B}[38;2;1;2;3m▀▀▀▀\u{1B}[0m")
        #expect(cell.isDone && recorder.done == 1)
        // Nothing redraws a done cell's box.
        cell.updateIndicatorProgress(0.9)
        #expect(recorder.writes.count == 5)
    }

    @Test func aFailureDrawsTheErrorBox() {
        let recorder = Recorder()
        let cell = Self.cell(recorder, box: .init(row: 0, column: 0, columns: 20, rows: 3))
        cell.showFailure(WebImageError(.badImageData, "nope"))
        #expect(cell.isDone)
        #expect(recorder.writes.last?.contains("\u{1B}[31m┌ pic.png ─") == true)
        #expect(recorder.writes.last?.contains("\u{1B}[31m│ ✗ ") == true)
        #expect((cell.failure as? WebImageError)?.code == .badImageData)
    }

    @Test func animationsPlayEveryFrameInPlaceUntilTheirLoopsEnd() async throws {
        let recorder = Recorder()
        let clock = ManualClock()
        let cell = Self.cell(recorder, box: .init(row: 0, column: 0, columns: 32, rows: 16), clock: clock) {
            recorder.done += 1
        }
        cell.setImage(ImageFixtures.animation(frames: 4, duration: 0.1, loopCount: 2), for: .image, transition: nil)
        // The cleared box and the still; then each frame when the clock reaches it.
        #expect(recorder.writes.count == 2)
        for frame in 0..<8 {
            try await Self.waitForWrites(recorder, 3 + frame)
            #expect(recorder.done == 0)
            clock.advance(by: .milliseconds(100))
        }
        while recorder.done == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(recorder.writes.count == 10)
        let frames = Array(recorder.writes[2...])
        #expect(Set(frames[0..<4]).count == 4)  // the square moves every frame
        #expect(frames[4..<8] == frames[0..<4])  // the second loop is the first again
        #expect(frames[0] == recorder.writes[1])  // frame 0 is the still
        #expect(frames.allSatisfy { $0.hasPrefix("\u{1B}8") })
    }

    @Test func stopEndsAnEndlessAnimation() async throws {
        let recorder = Recorder()
        let clock = ManualClock()
        let cell = Self.cell(recorder, graphics: .kitty, box: .init(row: 0, column: 0, columns: 10, rows: 5), clock: clock)
        cell.setImage(ImageFixtures.animation(frames: 3, duration: 0.1, loopCount: 0), for: .image, transition: nil)
        for frame in 0..<5 {
            try await Self.waitForWrites(recorder, 3 + frame)
            clock.advance(by: .milliseconds(100))
        }
        try await Self.waitForWrites(recorder, 8)
        #expect(!cell.isDone)
        cell.stop()
        #expect(cell.isDone)
        let count = recorder.writes.count
        clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
        #expect(recorder.writes.count == count)
        // kitty frames replace one image in place: same image and placement id every time, cursor kept.
        #expect(recorder.writes.dropFirst().allSatisfy { $0.contains("\u{1B}_Ga=T,f=100,t=d,q=2,c=4,r=2,i=3,p=1,C=1,") })
    }
}
