// Which message faults a link can suffer: the transport faults both of its ends allow, and, for
// a message of a given type, the faults its receiver declares it can suffer, and a rebalance of
// the records a broker delivers to a member of a group that another component also reads in. A
// component says so in its spec; the kernel, the fault space, check and replay all ask here.
import { DECLARED_FAULT_KINDS, TRANSPORT_FAULT_KINDS, type MessageFaultKind } from './faults.ts';

/** What a component declares about the message faults of its links. */
export interface LinkFaultSpec {
  readonly name: string;
  /**
   * The message faults the links to and from this component can suffer; all of them when
   * absent. A database connection, say, is dropped or slow but never duplicates a statement.
   */
  readonly messageFaults?: readonly MessageFaultKind[];
  /**
   * Faults beyond the transport's that strike messages of a type this component receives, by
   * message type. A member of a consumer group need not declare `rebalance` here: `subscribes`
   * gives it. Nowhere else is such a fault offered.
   */
  readonly receivedFaults?: Readonly<Record<string, readonly MessageFaultKind[]>>;
  /**
   * The group this component reads in at a broker, or one per broker it reads from: `from` delivers
   * it records of message `type` as a member of `group`. Where two or more components read in one group at one broker, the broker
   * can move a partition from one to another while a record is on its way, so each member's
   * deliveries may suffer `rebalance`, however the design drew its members.
   */
  readonly subscribes?: GroupMembership | readonly GroupMembership[];
}

/** One group a component reads in: `from` delivers it records of message `type` as a member of `group`. */
export interface GroupMembership {
  readonly from: string;
  readonly group: string;
  readonly type: string;
}

/** The groups a component says it joins, as a list (it may give one, or one per broker it reads from). */
export function membershipsOf(c: LinkFaultSpec | undefined): readonly GroupMembership[] {
  const sub = c?.subscribes;
  return sub === undefined ? [] : Array.isArray(sub) ? sub : [sub as GroupMembership];
}

/** Whether `c` reads in a group at `from` that some other component of the design also reads in. */
function sharesGroup(components: readonly LinkFaultSpec[], c: LinkFaultSpec | undefined, from: string, type: string): boolean {
  return membershipsOf(c).some((m) => m.from === from && m.type === type && components.some((o) => o !== c && membershipsOf(o).some((n) => n.from === from && n.group === m.group)));
}

/** The faults beyond the transport's that a message of `type` from `from` to `to` can suffer: its receiver's declared ones, and a rebalance where it shares a group. */
function receivedFaults(components: readonly LinkFaultSpec[], from: string, to: string, type: string): readonly MessageFaultKind[] {
  const c = components.find((x) => x.name === to);
  const declared = c?.receivedFaults?.[type] ?? [];
  return sharesGroup(components, c, from, type) && !declared.includes('rebalance') ? [...declared, 'rebalance'] : declared;
}

/** Whether some message of the design can suffer `kind`, a fault beyond the transport's. */
export function declaresFault(components: readonly LinkFaultSpec[], kind: MessageFaultKind): boolean {
  return components.some((c) => Object.values(c.receivedFaults ?? {}).some((d) => d.includes(kind)) || (kind === 'rebalance' && membershipsOf(c).some((m) => sharesGroup(components, c, m.from, m.type))));
}

/**
 * The message faults that can strike a message point: the transport faults both ends of the link
 * allow, then (for a message of that type) the faults its receiver declares it can suffer.
 */
export function linkFaults(components: readonly LinkFaultSpec[], from: string, to: string, type?: string): readonly MessageFaultKind[] {
  const allowed = (name: string) => components.find((c) => c.name === name)?.messageFaults ?? TRANSPORT_FAULT_KINDS;
  const a = allowed(from);
  const b = allowed(to);
  const transport = TRANSPORT_FAULT_KINDS.filter((k) => a.includes(k) && b.includes(k));
  const declared = type === undefined ? [] : receivedFaults(components, from, to, type);
  return [...transport, ...DECLARED_FAULT_KINDS.filter((k) => declared.includes(k))];
}
