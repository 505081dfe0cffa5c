import WebImage

/// The download queue and the per-URL coalescing, as a pure state machine: each input returns the
/// actions the caller must perform (start a download, detach a caller, stop a transfer). No
/// threads, no clocks; the HTTP loader drives it under one lock.
///
/// Invariants:
/// - At most one live download per key; callers of a key share it (each by its own token).
/// - A download leaves the key table when its last caller cancels, so a later caller of the same
///   key gets a new download rather than joining one that is stopping.
/// - A slot is freed only when the transfer reports its end (``downloadEnded(_:)``), so
///   `running <= maximumConcurrent` holds for real transfers, stopping ones included.
/// - Among queued downloads the highest priority starts first (a download's priority is the
///   highest of its callers'); ties go by ``DownloadExecutionOrder``.
struct DownloadQueueStateMachine<Key: Hashable & Sendable>: Sendable {
    typealias DownloadID = Int
    typealias TokenID = Int

    enum Phase: Hashable, Sendable {
        case queued(sequence: Int)
        case running
        case stopping
    }

    struct Download: Sendable {
        var key: Key
        var phase: Phase
        /// Callers and their priorities, in join order.
        var subscribers: [(token: TokenID, priority: ImageLoadPriority)]

        var priority: ImageLoadPriority { subscribers.map(\.priority).max() ?? .low }
    }

    /// What a new caller got.
    struct Subscription: Equatable, Sendable {
        /// The download the caller is attached to.
        var download: DownloadID
        /// Whether it joined a download that already existed.
        var joined: Bool
        /// Downloads to start now.
        var start: [DownloadID]
    }

    /// What a cancellation requires.
    enum CancelAction: Equatable, Sendable {
        /// Unknown token (already finished or cancelled): nothing to do.
        case none
        /// End this caller's events; the download goes on for its other callers.
        case detach(DownloadID)
        /// End this caller's events; the download was still queued and is gone.
        case detachAndDrop(DownloadID)
        /// End this caller's events and stop the transfer; its slot frees when it ends.
        case detachAndStop(DownloadID)
    }

    private(set) var maximumConcurrent: Int
    let order: DownloadExecutionOrder
    private(set) var downloads: [DownloadID: Download] = [:]
    private var byKey: [Key: DownloadID] = [:]
    private var tokens: [TokenID: DownloadID] = [:]
    private(set) var runningCount = 0
    private var nextID = 0
    private var nextSequence = 0

    init(maximumConcurrent: Int, order: DownloadExecutionOrder) {
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.order = order
    }

    /// Queued downloads, in the order they would start.
    var queue: [DownloadID] {
        downloads.keys.filter { if case .queued = downloads[$0]!.phase { true } else { false } }
            .sorted { startsBefore($0, $1) }
    }

    /// The callers of a download, in join order.
    func subscribers(of download: DownloadID) -> [TokenID] {
        downloads[download]?.subscribers.map(\.token) ?? []
    }

    /// The download a token is attached to.
    func download(of token: TokenID) -> DownloadID? { tokens[token] }

    /// The phase of a download, or nil once it is gone.
    func phase(of download: DownloadID) -> Phase? { downloads[download]?.phase }

    /// A caller asks for `key`: it joins the live download of that key or queues a new one.
    mutating func subscribe(token: TokenID, key: Key, priority: ImageLoadPriority) -> Subscription {
        precondition(tokens[token] == nil, "token \(token) subscribed twice")
        if let id = byKey[key] {
            downloads[id]!.subscribers.append((token, priority))
            tokens[token] = id
            return Subscription(download: id, joined: true, start: [])
        }
        let id = nextID
        nextID += 1
        downloads[id] = Download(key: key, phase: .queued(sequence: nextSequence), subscribers: [(token, priority)])
        nextSequence += 1
        byKey[key] = id
        tokens[token] = id
        return Subscription(download: id, joined: false, start: startWhatFits())
    }

    /// A caller cancels its token.
    mutating func cancel(token: TokenID) -> CancelAction {
        guard let id = tokens.removeValue(forKey: token), var download = downloads[id] else { return .none }
        download.subscribers.removeAll { $0.token == token }
        guard download.subscribers.isEmpty else {
            downloads[id] = download
            return .detach(id)
        }
        if byKey[download.key] == id { byKey[download.key] = nil }
        switch download.phase {
        case .queued:
            downloads[id] = nil
            return .detachAndDrop(id)
        case .running, .stopping:
            download.phase = .stopping
            downloads[id] = download
            return .detachAndStop(id)
        }
    }

    /// A caller changes its priority; a queued download is reordered accordingly.
    mutating func setPriority(token: TokenID, _ priority: ImageLoadPriority) {
        guard let id = tokens[token], let index = downloads[id]?.subscribers.firstIndex(where: { $0.token == token })
        else { return }
        downloads[id]!.subscribers[index].priority = priority
    }

    /// A started download's transfer ended (finished, failed or stopped): returns the callers
    /// still attached, to be given the outcome, and the downloads to start in the freed slot.
    mutating func downloadEnded(_ id: DownloadID) -> (subscribers: [TokenID], start: [DownloadID]) {
        guard let download = downloads.removeValue(forKey: id) else { return ([], []) }
        if case .queued = download.phase {
            preconditionFailure("download \(id) ended before it started")
        }
        if byKey[download.key] == id { byKey[download.key] = nil }
        let subscribers = download.subscribers.map(\.token)
        for token in subscribers { tokens[token] = nil }
        runningCount -= 1
        return (subscribers, startWhatFits())
    }

    /// Changes the number of slots; returns downloads that can start now.
    mutating func setMaximumConcurrent(_ limit: Int) -> [DownloadID] {
        maximumConcurrent = max(1, limit)
        return startWhatFits()
    }

    private mutating func startWhatFits() -> [DownloadID] {
        var started: [DownloadID] = []
        while runningCount < maximumConcurrent, let next = nextQueued() {
            downloads[next]!.phase = .running
            runningCount += 1
            started.append(next)
        }
        return started
    }

    private func nextQueued() -> DownloadID? {
        var best: DownloadID?
        for (id, download) in downloads {
            guard case .queued = download.phase else { continue }
            if let current = best, !startsBefore(id, current) { continue }
            best = id
        }
        return best
    }

    private func startsBefore(_ a: DownloadID, _ b: DownloadID) -> Bool {
        guard let da = downloads[a], let db = downloads[b],
            case .queued(let sa) = da.phase, case .queued(let sb) = db.phase
        else { return false }
        if da.priority != db.priority { return da.priority > db.priority }
        return order == .fifo ? sa < sb : sa > sb
    }
}
