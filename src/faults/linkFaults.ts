// Which message faults a link can suffer: the transport faults both of its ends allow, and, for
// a message of a given type, the faults its receiver declares it can suffer (a consumer group's
// rebalance). A component says so in its spec; the kernel, the fault space and replay all ask here.
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
   * message type: a member of a consumer group of two or more declares `rebalance` for the
   * records its broker delivers. Nowhere else is such a fault offered.
   */
  readonly receivedFaults?: Readonly<Record<string, readonly MessageFaultKind[]>>;
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
  const declared = type === undefined ? [] : (components.find((c) => c.name === to)?.receivedFaults?.[type] ?? []);
  return [...transport, ...DECLARED_FAULT_KINDS.filter((k) => declared.includes(k))];
}
