import Foundation
public import WebImageFuzzing

/// libFuzzer's own driver (`-sanitize=fuzzer` links it): parses the command line, then fuzzes
/// or replays files through `callback`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// What every `fuzz-*` executable does: run one input, or start libFuzzer.
public enum FuzzDriver {
    /// Runs one input through `target`; a broken contract traps, so libFuzzer records the input
    /// as a crash.
    public static func testOneInput(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let outcome = target.run(UnsafeRawBufferPointer(start: data, count: size))
        if case .contractViolation(let message) = outcome {
            fatalError("fuzz-\(target.rawValue): contract violation: \(message)")
        }
        return 0
    }

    /// The executable's `main`. `--write-seeds DIR` writes the target's seeds into DIR; any other
    /// arguments go to libFuzzer (`-help=1` lists its options).
    public static func main(
        _ target: FuzzTarget, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        let arguments = (0..<Int(argc)).map { argv[$0].map { String(cString: $0) } ?? "" }
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            return writeSeeds(of: target, to: URL(fileURLWithPath: arguments[2]))
        }
        var count = argc
        var vector = argv
        return LLVMFuzzerRunDriver(&count, &vector, callback)
    }

    private static func writeSeeds(of target: FuzzTarget, to directory: URL) -> CInt {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for seed in try target.seeds() {
                try seed.data.write(to: directory.appendingPathComponent(seed.name), options: .atomic)
                print("\(directory.lastPathComponent)/\(seed.name) \(seed.data.count) bytes")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("fuzz-\(target.rawValue): cannot write seeds: \(error)\n".utf8))
            return 1
        }
    }
}
