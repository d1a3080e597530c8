// How a broker shares a consumer group's partitions among the group's live members: round-robin
// in member-name order (partition p goes to the (p mod n)-th member), the same in every process
// and every run. A member that joins, leaves or crashes changes the member list and so the
// assignment; a partition whose owner changes is taken up by its new owner from the group's
// committed offset, which is where a record still in the old owner's hands is delivered twice.
// Each change is a new generation of the group, and each partition remembers the generation it
// was handed over in, so a commit can be told from a late one of a previous owner (Kafka's
// consumer sends its generation with every commit for that reason).

/** The coordinator's view of one group: who owns each partition, since which generation. */
export interface GroupAssignment {
  /** Bumped on every change of the assignment. */
  readonly generation: number;
  /** partition → the member that owns it, or null when the group has no live member. */
  readonly owners: readonly (string | null)[];
  /** partition → the generation its current owner received it in. */
  readonly epochs: readonly number[];
}

/** partition → member, round-robin over the members in name order. */
export function roundRobin(members: readonly string[], partitions: number): (string | null)[] {
  const sorted = [...members].sort();
  return Array.from({ length: partitions }, (_, p) => (sorted.length === 0 ? null : sorted[p % sorted.length]!));
}

/** A group nobody has joined yet. */
export function emptyAssignment(partitions: number): GroupAssignment {
  return { generation: 0, owners: Array.from({ length: partitions }, () => null), epochs: Array.from({ length: partitions }, () => 0) };
}

/**
 * The assignment after the member list changed. `fresh` names a member whose session is new (it
 * just joined or rejoined): its partitions are handed over again even if it owned them before.
 * Returns the partitions that changed hands, which their new owners take up from the committed
 * offset.
 */
export function reassign(current: GroupAssignment, members: readonly string[], fresh: string | undefined): { assignment: GroupAssignment; moved: number[] } {
  const owners = roundRobin(members, current.owners.length);
  const generation = current.generation + 1;
  const moved: number[] = [];
  const epochs = owners.map((o, p) => {
    if (o === current.owners[p] && (o === null || o !== fresh)) return current.epochs[p]!;
    if (o !== null) moved.push(p);
    return generation;
  });
  return { assignment: { generation, owners, epochs }, moved };
}

/**
 * The assignment after partition `p` is taken from its owner and given to the next member in
 * name order (a rebalance while a record of it is on its way); unchanged when the group has no
 * other member or `from` does not own `p`.
 */
export function handOver(current: GroupAssignment, members: readonly string[], p: number, from: string): { assignment: GroupAssignment; to: string } | undefined {
  const sorted = [...members].sort();
  if (current.owners[p] !== from || sorted.length < 2) return undefined;
  const i = sorted.indexOf(from);
  const to = sorted[(i + 1) % sorted.length]!;
  const generation = current.generation + 1;
  return {
    to,
    assignment: { generation, owners: current.owners.map((o, q) => (q === p ? to : o)), epochs: current.epochs.map((e, q) => (q === p ? generation : e)) },
  };
}
