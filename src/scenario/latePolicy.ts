// What a stream operator does with a fact that arrives after its window's result is final
// (seed 000's late-data policies), as one list: the operator's option, a design's schema and the
// decision record's wording are all typed from it, so a policy added to one is known to all.
export const LATE_POLICIES = ['correction', 'revise', 'retract', 'overwrite', 'review', 'drop', 'ignore', 'wait'] as const;
export type LatePolicy = (typeof LATE_POLICIES)[number];
