// How a broker shares a consumer group's partitions among the group's live members: round-robin
// in member-name order (partition p goes to the (p mod n)-th member), the same in every process
// and every run. A member that joins, leaves or crashes changes the member list and so the
// assignment; a partition whose owner changes is taken up by its new owner from the group's
// committed offset.
// A partition moves away from a live owner the way Kafka's cooperative protocol moves it: the
// owner is first asked to give it up, finishes the record it holds, and only then does the new
// owner start; so a planned move never has two members holding one record. A crashed owner
// holds nothing, and its partitions move at once. The only way two members hold one record is
// an owner that is still working while the coordinator has given its partition away (it missed
// a heartbeat, its poll took too long): the `rebalance` fault, or a handover whose owner has not
// finished within the redelivery timeout.
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
  /** partition → the member it goes to once its owner has finished the record it holds, or null. */
  readonly pending: readonly (string | null)[];
}

/** partition → member, round-robin over the members in name order. */
export function roundRobin(members: readonly string[], partitions: number): (string | null)[] {
  const sorted = [...members].sort();
  return Array.from({ length: partitions }, (_, p) => (sorted.length === 0 ? null : sorted[p % sorted.length]!));
}

/** A group nobody has joined yet. */
export function emptyAssignment(partitions: number): GroupAssignment {
  const none = Array.from({ length: partitions }, () => null);
  return { generation: 0, owners: none, epochs: none.map(() => 0), pending: none };
}

/**
 * The assignment after the member list changed. `fresh` names a member whose session is new (it
 * just joined or rejoined): its partitions are handed over again even if it owned them before.
 * A partition leaving a live owner that `holds` a record of it stays with that owner, pending,
 * until the owner finishes (see `release`). Returns the partitions that changed hands now, which
 * their new owners take up from the committed offset.
 */
export function reassign(
  current: GroupAssignment,
  members: readonly string[],
  fresh: string | undefined,
  holds: (partition: number, owner: string) => boolean,
): { assignment: GroupAssignment; moved: number[] } {
  const target = roundRobin(members, current.owners.length);
  const generation = current.generation + 1;
  const moved: number[] = [];
  const owners: (string | null)[] = [];
  const epochs: number[] = [];
  const pending: (string | null)[] = [];
  target.forEach((t, p) => {
    const o = current.owners[p] ?? null;
    if (t === o && (o === null || o !== fresh)) {
      owners.push(o);
      epochs.push(current.epochs[p]!);
      pending.push(null);
    } else if (o !== null && o !== fresh && members.includes(o) && holds(p, o)) {
      owners.push(o);
      epochs.push(current.epochs[p]!);
      pending.push(t);
    } else {
      owners.push(t);
      epochs.push(generation);
      pending.push(null);
      if (t !== null) moved.push(p);
    }
  });
  return { assignment: { generation, owners, epochs, pending }, moved };
}

/** Partition `p` given to `to` under a new generation, its epoch raised and nothing pending for it. */
function moveTo(current: GroupAssignment, p: number, to: string): { assignment: GroupAssignment; to: string } {
  const generation = current.generation + 1;
  return {
    to,
    assignment: {
      generation,
      owners: current.owners.map((o, q) => (q === p ? to : o)),
      epochs: current.epochs.map((e, q) => (q === p ? generation : e)),
      pending: current.pending.map((x, q) => (q === p ? null : x)),
    },
  };
}

/** The assignment once partition `p`'s owner has given it up: the pending member owns it now; unchanged when nothing is pending. */
export function release(current: GroupAssignment, p: number): { assignment: GroupAssignment; to: string } | undefined {
  const to = current.pending[p];
  if (to === null || to === undefined) return undefined;
  return moveTo(current, p, to);
}

/**
 * The assignment after partition `p` is taken from its owner at once and given to the next
 * member in name order, while the owner may still be working on a record of it (the owner is
 * presumed gone: the `rebalance` fault); unchanged when the group has no other member or `from`
 * does not own `p`.
 */
export function handOver(current: GroupAssignment, members: readonly string[], p: number, from: string): { assignment: GroupAssignment; to: string } | undefined {
  const sorted = [...members].sort();
  if (current.owners[p] !== from || sorted.length < 2) return undefined;
  const i = sorted.indexOf(from);
  const to = sorted[(i + 1) % sorted.length]!;
  return moveTo(current, p, to);
}
