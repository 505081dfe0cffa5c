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
        var subscribers: [(token: TokenID, priority: ImageLoad.Priority)]

        var priority: ImageLoad.Priority { subscribers.map(\.priority).max() ?? .low }
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
    /// Queued downloads by the priority they are filed under, each sorted by sequence (download
    /// ids grow with sequence, so by id): picking the next is O(1) instead of a scan.
    private var waiting: [ImageLoad.Priority: [DownloadID]] = [.high: [], .normal: [], .low: []]
    private var filedUnder: [DownloadID: ImageLoad.Priority] = [:]
    private(set) var runningCount = 0
    private var nextID = 0
    private var nextSequence = 0

    init(maximumConcurrent: Int, order: DownloadExecutionOrder) {
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.order = order
    }

    /// Queued downloads, in the order they would start.
    var queue: [DownloadID] {
        [ImageLoad.Priority.high, .normal, .low].flatMap { order == .fifo ? waiting[$0]! : waiting[$0]!.reversed() }
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
    mutating func subscribe(token: TokenID, key: Key, priority: ImageLoad.Priority) -> Subscription {
        precondition(tokens[token] == nil, "token \(token) subscribed twice")
        if let id = byKey[key] {
            downloads[id]!.subscribers.append((token, priority))
            tokens[token] = id
            refile(id)
            return Subscription(download: id, joined: true, start: [])
        }
        let id = nextID
        nextID += 1
        downloads[id] = Download(key: key, phase: .queued(sequence: nextSequence), subscribers: [(token, priority)])
        nextSequence += 1
        byKey[key] = id
        tokens[token] = id
        file(id)
        return Subscription(download: id, joined: false, start: startWhatFits())
    }

    /// A caller cancels its token.
    mutating func cancel(token: TokenID) -> CancelAction {
        guard let id = tokens.removeValue(forKey: token), var download = downloads[id] else { return .none }
        download.subscribers.removeAll { $0.token == token }
        guard download.subscribers.isEmpty else {
            downloads[id] = download
            refile(id)
            return .detach(id)
        }
        if byKey[download.key] == id { byKey[download.key] = nil }
        switch download.phase {
        case .queued:
            unfile(id)
            downloads[id] = nil
            return .detachAndDrop(id)
        case .running, .stopping:
            download.phase = .stopping
            downloads[id] = download
            return .detachAndStop(id)
        }
    }

    /// A caller changes its priority; a queued download is reordered accordingly.
    mutating func setPriority(token: TokenID, _ priority: ImageLoad.Priority) {
        guard let id = tokens[token], let index = downloads[id]?.subscribers.firstIndex(where: { $0.token == token })
        else { return }
        downloads[id]!.subscribers[index].priority = priority
        refile(id)
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
            unfile(next)
            downloads[next]!.phase = .running
            runningCount += 1
            started.append(next)
        }
        return started
    }

    private func nextQueued() -> DownloadID? {
        for priority in [ImageLoad.Priority.high, .normal, .low] {
            if let ids = waiting[priority], !ids.isEmpty { return order == .fifo ? ids.first : ids.last }
        }
        return nil
    }

    /// Files a queued download under its current priority, in id order.
    private mutating func file(_ id: DownloadID) {
        let priority = downloads[id]!.priority
        var ids = waiting[priority]!
        waiting[priority] = nil
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        ids.insert(id, at: low)
        waiting[priority] = ids
        filedUnder[id] = priority
    }

    private mutating func unfile(_ id: DownloadID) {
        guard let priority = filedUnder.removeValue(forKey: id) else { return }
        if waiting[priority]!.first == id {
            waiting[priority]!.removeFirst()
        } else if waiting[priority]!.last == id {
            waiting[priority]!.removeLast()
        } else if let index = waiting[priority]!.firstIndex(of: id) {
            waiting[priority]!.remove(at: index)
        }
    }

    /// Files a queued download again if its priority changed.
    private mutating func refile(_ id: DownloadID) {
        guard let filed = filedUnder[id], let download = downloads[id], download.priority != filed else { return }
        unfile(id)
        file(id)
    }
}
