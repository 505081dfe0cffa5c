/// The order in which waiting downloads of equal priority start (SDWebImage's
/// `SDWebImageDownloaderExecutionOrder`).
public enum DownloadExecutionOrder: Sendable, Hashable {
    /// First in, first out: the oldest waiting download starts first (the default).
    case fifo
    /// Last in, first out: the newest waiting download starts first (a scrolling list).
    case lifo
}
