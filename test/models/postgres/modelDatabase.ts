// The database model driven the way the World drives it: one event at a time through XState's
// pure `transition`, each event carrying its connection (`from`) and tick (`at`), the replies
// read from the `send` actions the step emitted. A step can be tried without being taken, so a
// runner can skip a step whose outcome it cannot compare.
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import type { Emitted, SendEmitted } from '../../../src/kernel/emitted.ts';
import { databaseMachine, rowsOf, waitingOf, type DatabaseDurable, type DatabaseReply, type Row, type TableSpec } from '../../../models/database.ts';

export interface Delivered {
  readonly to: string;
  readonly event: DatabaseReply;
}

export interface Tried {
  readonly snapshot: AnyMachineSnapshot;
  readonly replies: readonly Delivered[];
}

export class ModelDatabase {
  private snapshot: AnyMachineSnapshot;

  constructor(tables: Readonly<Record<string, TableSpec>>) {
    this.snapshot = initialTransition(databaseMachine, { tables })[0];
  }

  /** The step's outcome, without taking it. */
  try(event: Record<string, unknown>): Tried {
    const [snapshot, actions] = transition(databaseMachine, this.snapshot as never, event as never);
    const replies = (actions as readonly { type: string; params?: unknown }[])
      .filter((a) => a.type === 'xstate.emit')
      .map((a) => (a.params as { event: Emitted }).event)
      .filter((e): e is SendEmitted => e.type === 'send')
      .map((s) => ({ to: s.to, event: s.event as DatabaseReply }));
    return { snapshot, replies };
  }

  take(tried: Tried): void {
    this.snapshot = tried.snapshot;
  }

  /** Which open transaction each waiting one waits for, by their keys (`peer/tx`). */
  waiting(snapshot: AnyMachineSnapshot = this.snapshot): ReadonlyMap<string, string> {
    return waitingOf(snapshot.context);
  }

  rows(table: string): Row[] {
    return rowsOf(this.snapshot.context.durable as DatabaseDurable, table);
  }
}
