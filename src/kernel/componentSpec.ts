// A component as the kernel runs it: its machine, whether it is a process or a server, and what
// faults can do to it (crash at its windows, restore from a snapshot, skew its clock, which
// message faults its links suffer). The design's own fields for reports extend it
// (src/scenario/scenario.ts DesignComponent); the kernel reads only these.
import type { AnyStateMachine } from 'xstate';
import type { LinkFaultSpec } from '../faults/linkFaults.ts';
import type { Stepper } from './stepper.ts';

export interface ComponentSpec extends LinkFaultSpec {
  readonly name: string;
  /** The component's definition: its states are its failure windows, and the drivers step it. */
  readonly machine: AnyStateMachine;
  readonly input?: Record<string, unknown>;
  /**
   * Process machines have failure windows (their resting states) and can crash. A server
   * (database, broker) crashes only where `crashes` is set, at the windows its machine declares.
   */
  readonly process: boolean;
  /**
   * A server that crashes and restarts at its own windows (src/run/failureWindows.ts): what it had
   * made durable survives, everything else it held is gone, and the replies of the step the
   * crash struck are never sent.
   */
  readonly crashes?: boolean;
  /**
   * The client sessions a server's volatile context holds open (a database's open transactions,
   * by `client/tx`). A crash breaks them, and the restarted server is given them as
   * `input.broken`, so a request that later arrives on one is refused as on a closed connection
   * rather than taken for a new transaction with its earlier statements missing.
   */
  readonly sessionsOf?: (context: unknown) => readonly string[];
  /**
   * What, besides its durable state, others may be waiting on: a step that changes it (compared
   * with `!==`, so text or a number, or the very same object while nothing changed) counts as
   * progress for the quiet rule
   * (src/kernel/quiet.ts), so pollers armed before it must fire again before the world is quiet.
   * A database's idle timeout rolling a transaction back changes no row but releases its locks.
   */
  readonly progressOf?: (context: unknown) => unknown;
  /**
   * Steps this component some other way than the driver would (the benchmark's plain reducers);
   * it must behave as `machine` does, state for state.
   */
  readonly stepper?: () => Stepper;
  /** How long it stays down after a crash; the world's `restartDelayTicks` when absent. */
  readonly restartDelayTicks?: number;
  /**
   * A component that can be restored from a snapshot: given its durable state now and the tick of
   * the restore, the durable state its snapshot restores (a database's last backup, the newest
   * backup at least some age old, a broker's group offsets as they stood, a stream processor's
   * older checkpoint). A `restore` fault crashes it and restarts it from that state; without
   * this, nothing restores it.
   */
  readonly restore?: (durable: unknown, now: number) => unknown;
  /**
   * Components restored with this one, at the same moment and each to its own snapshot (each
   * declares `restore`): a database and the broker holding its consumer's committed offsets, set
   * back as one consistent snapshot by one `restore` fault that names this component.
   */
  readonly restoresWith?: readonly string[];
  /**
   * A component whose clock can jump: a `skew` fault delivers it `{ type: 'sys.clockSkew',
   * ticks }`, and from then on its clock reads that many ticks ahead. The model decides what
   * its clock stamps (a device's event times); without this, no skew strikes it.
   */
  readonly skewTicks?: number;
}
