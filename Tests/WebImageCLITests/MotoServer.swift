import Foundation
import Synchronization
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// moto's S3-compatible server (`python3 -m moto.server`) on a free loopback port, with signature
/// checking on: after start, an IAM user with an access key and an allow-all policy is made
/// (unsigned, while moto checks nothing), then moto is told to authenticate every request, so a
/// request with a bad signature, an unknown key or a missing one is refused as S3 refuses it
/// (botocore's own SigV4 checks ours).
final class MotoServer: @unchecked Sendable {  // the Process is only killed and waited for, once, by the suite's scope
    let port: Int
    let credentials: S3Credentials
    private let process: Process

    /// The server the running suite shares (see ``MotoServerScope``).
    @TaskLocal static var current: MotoServer?

    /// The Python that runs moto: `$MOTO_PYTHON`, else `python3`.
    static let python = ProcessInfo.processInfo.environment["MOTO_PYTHON"] ?? "python3"

    /// Whether moto's server mode can run here; prints a loud note once when it cannot.
    static let isAvailable: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = [python, "-c", "import moto.server, flask, werkzeug"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        let available = (try? probe.run()).map { probe.waitUntilExit(); return probe.terminationStatus == 0 } ?? false
        if !available {
            FileHandle.standardError.write(Data("""
                \n************************************************************************
                S3 END-TO-END TESTS SKIPPED: moto's server mode is not installed
                (\(python) -c "import moto.server" failed). Install it with
                pip install 'moto[server]' (scripts/install-system-packages.sh --tools does).
                ************************************************************************\n\n
                """.utf8))
        }
        return available
    }()

    /// The store's URL.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// S3 settings for this server with its user's key.
    var configuration: S3Configuration { S3Configuration(region: "us-east-1", endpoint: endpoint, credentials: credentials) }

    private init(port: Int, credentials: S3Credentials, process: Process) {
        self.port = port
        self.credentials = credentials
        self.process = process
    }

    /// Starts moto, waits until it answers, makes the user and its key, and turns authentication on.
    static func start() async throws -> MotoServer {
        let port = try FreePort.next()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // moto imports every service's models at start: seconds on a loaded 2-core machine.
        let deadline = ContinuousClock.now + .seconds(120)
        while !FreePort.canConnect(port: port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.terminate()
                throw MotoError("moto did not start on port \(port)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        do {
            let credentials = try await makeUser(port: port)
            // From now on every request is authenticated and authorized. (Not a form: moto reads the raw body.)
            var reset = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/moto-api/reset-auth")!)
            reset.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            let (status, _) = try await send(reset, method: "POST", body: Data("0".utf8))
            guard status == 200 else { throw MotoError("moto refused to turn authentication on (\(status))") }
            return MotoServer(port: port, credentials: credentials, process: process)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
    }

    /// Stops moto and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Makes an IAM user with an allow-all policy and returns its new access key (moto reads the
    /// service from the credential scope; nothing is checked yet).
    private static func makeUser(port: Int) async throws -> S3Credentials {
        let user = "webimage-test"
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#
        var key: S3Credentials?
        for parameters in [
            ["Action": "CreateUser", "UserName": user],
            ["Action": "CreateAccessKey", "UserName": user],
            ["Action": "PutUserPolicy", "UserName": user, "PolicyName": "all", "PolicyDocument": policy],
        ] {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue(
                "AWS4-HMAC-SHA256 Credential=AKIDSETUP/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0",
                forHTTPHeaderField: "Authorization")
            let form = (parameters.merging(["Version": "2010-05-08"]) { $1 }).map {
                "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            }.joined(separator: "&")
            let (status, body) = try await send(request, method: "POST", body: Data(form.utf8))
            let text = String(decoding: body, as: UTF8.self)
            guard status == 200 else { throw MotoError("moto's IAM \(parameters["Action"]!) answered \(status): \(text)") }
            if parameters["Action"] == "CreateAccessKey" {
                guard let id = element("AccessKeyId", in: text), let secret = element("SecretAccessKey", in: text) else {
                    throw MotoError("no access key in \(text)")
                }
                key = S3Credentials(accessKeyID: id, secretAccessKey: secret)
            }
        }
        guard let key else { throw MotoError("no access key made") }
        return key
    }

    /// Makes `bucket` and stores `objects` (key → bytes) in it, with requests signed by `configuration`.
    func put(bucket: String, objects: [String: Data]) async throws {
        let s3 = configuration
        let bucketURL = endpoint.appendingPathComponent(bucket)
        let made = try await Self.sendSigned(ImageLoad.URLRequest(url: bucketURL, method: "PUT"), with: s3)
        guard made.status == 200 else { throw MotoError("PUT bucket \(bucket): \(made.status) \(String(decoding: made.body, as: UTF8.self))") }
        for (key, data) in objects {
            let url = try s3.httpURL(for: S3Location(URL(string: "s3://\(bucket)/\(key)")!))
            var put = ImageLoad.URLRequest(url: url, method: "PUT", body: data)
            put.headers["Content-Type"] = "application/octet-stream"
            let stored = try await Self.sendSigned(put, with: s3)
            guard stored.status == 200 else {
                throw MotoError("PUT \(bucket)/\(key): \(stored.status) \(String(decoding: stored.body, as: UTF8.self))")
            }
        }
    }

    /// Sends `request` signed now by `s3`.
    static func sendSigned(_ request: ImageLoad.URLRequest, with s3: S3Configuration) async throws -> (status: Int, body: Data) {
        let signed = try s3.signed(request, at: Date())
        var outgoing = URLRequest(url: signed.url)
        // The client writes the same Host itself.
        for field in signed.headers where field.name.lowercased() != "host" {
            outgoing.setValue(field.value, forHTTPHeaderField: field.name)
        }
        return try await send(outgoing, method: signed.method, body: signed.body)
    }

    private static func send(_ request: URLRequest, method: String, body: Data?) async throws -> (status: Int, body: Data) {
        var request = request
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 120
        let (data, response) = try await ServeMemoryTests.patientSession.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    private static func element(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

/// Starts one ``MotoServer`` for a whole suite (moto's start-up costs seconds) and stops it after
/// the suite's last test; its tests read it from ``MotoServer/current``.
struct MotoServerScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard MotoServer.isAvailable else { return try await function() }
        let server = try await MotoServer.start()
        do {
            try await MotoServer.$current.withValue(server) { try await function() }
        } catch {
            server.stop()
            throw error
        }
        server.stop()
    }
}

extension Trait where Self == MotoServerScope {
    /// One moto server for the suite, in ``MotoServer/current``.
    static var motoServer: Self { MotoServerScope() }
}

struct MotoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
