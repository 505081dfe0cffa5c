import Foundation

/// Intermediate results (Nuke's): the result of a transformer chain `[t1 … tn]` is the result of
/// `[t1 … tn-1]` with `tn` applied, and that prefix is a result of its own, with its own key,
/// coalesced, looked up and stored like any other.
extension RequestPlan {
    /// For a ``ChainedTransformer`` of two or more steps (nested chains count step by step): the
    /// plan of the same request with the chain's prefix as its transformer, and the last step.
    ///
    /// The prefix plan queries the tiers the request queries, but stores its result on disk only
    /// (when the request stores there): memory keeps what callers asked for, not every prefix of
    /// it. A prefix some caller asked for as its own result is found in memory all the same.
    var intermediate: (plan: RequestPlan, last: any ImageTransforming)? {
        guard let chain = request.transformer as? ChainedTransformer else { return nil }
        let steps = chain.flattenedSteps
        guard steps.count >= 2, let last = steps.last else { return nil }
        let prefixSteps = Array(steps.dropLast())
        var prefix = request
        prefix.transformer = prefixSteps.count == 1 ? prefixSteps[0] : ChainedTransformer(prefixSteps)
        prefix.imageModifier = nil
        prefix.options.remove(.refreshCached)
        prefix.caching.storeType = request.caching.storeType.intersection(.disk)
        var plan = RequestPlan(request: prefix, url: url, originalKey: originalKey)
        plan.isIntermediate = true
        return (plan, last)
    }
}

extension ChainedTransformer {
    /// The steps in order, with nested chains replaced by their own steps.
    var flattenedSteps: [any ImageTransforming] {
        transformers.flatMap { step -> [any ImageTransforming] in
            (step as? ChainedTransformer)?.flattenedSteps ?? [step]
        }
    }
}
