import ArgumentParser
import Foundation
import WebImageKit

/// `--s3-*`: where `s3://bucket/key` URLs are read from and with which keys, for `fetch` and
/// `serve`. Each flag falls back on `WEBIMAGE_S3_*`, then on AWS's standard variables
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` or
/// `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`).
struct S3Option: ParsableArguments {
    @Flag(help: "serve: read s3://bucket/key sources (--s3-endpoint or --s3-allow-bucket also turn them on; fetch always reads them).")
    var useS3 = false

    @Option(help: ArgumentHelp(
        "An S3-compatible store's URL (MinIO, moto, Ceph…), addressed path-style; default AWS (virtual-hosted).",
        valueName: "URL"))
    var s3Endpoint: String?

    @Option(help: ArgumentHelp("The region requests are signed for (default AWS_REGION, else us-east-1).", valueName: "REGION"))
    var s3Region: String?

    @Option(help: ArgumentHelp("Read only this bucket (repeatable; default any).", valueName: "BUCKET"))
    var s3AllowBucket: [String] = []

    @Option(help: ArgumentHelp("The access key ID (default AWS_ACCESS_KEY_ID).", valueName: "ID"))
    var s3AccessKeyId: String?

    @Option(help: ArgumentHelp(
        "The secret access key (default AWS_SECRET_ACCESS_KEY; prefer the variable: arguments are visible to other users).",
        valueName: "SECRET"))
    var s3SecretAccessKey: String?

    @Option(help: ArgumentHelp("The session token of temporary credentials (default AWS_SESSION_TOKEN).", valueName: "TOKEN"))
    var s3SessionToken: String?

    /// How errors name the settings: the flags and the variables.
    static let settingNames: S3Configuration.SettingNames = {
        var names = S3Configuration.SettingNames()
        names.credentials = "--s3-access-key-id and --s3-secret-access-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        names.region = "--s3-region or AWS_REGION"
        names.endpoint = "--s3-endpoint or WEBIMAGE_S3_ENDPOINT"
        names.allowedBuckets = "--s3-allow-bucket or WEBIMAGE_S3_ALLOW_BUCKET"
        return names
    }()

    /// The S3 settings of these flags over `environment`; nil when `s3://` is off (`serve`
    /// without `--use-s3`, an endpoint or a bucket; `fetch` passes `alwaysOn`). Throws a
    /// `storageSettings` error naming the bad setting: a bad endpoint or region, half a pair of
    /// credentials, or (with `requiringCredentials`) none.
    func configuration(environment: [String: String], alwaysOn: Bool, requiringCredentials: Bool) throws -> S3Configuration? {
        func value(_ flag: String?, _ names: String...) -> String? {
            if let flag, !flag.isEmpty { return flag }
            return names.lazy.compactMap { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }.first
        }
        let buckets =
            s3AllowBucket.isEmpty
            ? (environment["WEBIMAGE_S3_ALLOW_BUCKET"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            : s3AllowBucket
        let endpoint = value(s3Endpoint, "WEBIMAGE_S3_ENDPOINT", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
        let enabled =
            alwaysOn || useS3 || ["1", "true", "yes"].contains(environment["WEBIMAGE_USE_S3"]?.lowercased() ?? "")
            || value(s3Endpoint, "WEBIMAGE_S3_ENDPOINT") != nil || !buckets.isEmpty
        guard enabled else { return nil }
        var configuration = S3Configuration(
            region: value(s3Region, "WEBIMAGE_S3_REGION", "AWS_REGION", "AWS_DEFAULT_REGION") ?? "us-east-1")
        configuration.settingNames = Self.settingNames
        if let endpoint {
            guard let url = URL(string: endpoint) else {
                throw WebImageError(.storageSettings, "the S3 endpoint \(endpoint) is not a URL (\(Self.settingNames.endpoint))")
            }
            configuration.endpoint = url
        }
        for bucket in buckets {
            guard S3Location.isValidBucketName(bucket) else {
                throw WebImageError(.storageSettings, "'\(bucket)' is not an S3 bucket name (\(Self.settingNames.allowedBuckets))")
            }
        }
        configuration.allowedBuckets = Set(buckets)
        try configuration.validate()
        let id = value(s3AccessKeyId, "WEBIMAGE_S3_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID")
        let secret = value(s3SecretAccessKey, "WEBIMAGE_S3_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY")
        switch (id, secret) {
        case (let id?, let secret?):
            configuration.credentials = S3Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: value(s3SessionToken, "WEBIMAGE_S3_SESSION_TOKEN", "AWS_SESSION_TOKEN"))
        case (nil, nil):
            if requiringCredentials {
                throw WebImageError(.storageSettings, "s3:// sources need credentials: give \(Self.settingNames.credentials)")
            }
        case (nil, _):
            throw WebImageError(.storageSettings, "an S3 secret access key without its ID: give --s3-access-key-id or AWS_ACCESS_KEY_ID")
        case (_, nil):
            throw WebImageError(.storageSettings, "an S3 access key ID without its secret: give --s3-secret-access-key or AWS_SECRET_ACCESS_KEY")
        }
        return configuration
    }
}
