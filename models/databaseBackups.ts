// A database's periodic backups, kept in its durable state, and a restore to the newest backup at
// least a given age old (seed 003: "Restore an old snapshot and replay the input"; seed 000:
// "Restore processor state … Add measured restore time"). A backup is scheduled every
// `everyTicks` from tick 0, the first being the empty database before the workload. Taking one
// changes nothing the database serves, so none is taken by a timer: the database's committed
// state at a scheduled tick is the state before the first commit after it, so at each commit the
// database first records, if a scheduled tick has passed since its last commit, the state it is
// about to change, stamped with the first such tick. One record stands for every scheduled backup
// from its stamp until the next record's (nothing was committed between them); the scheduled
// backups after the last commit are the current state. Records no restore can reach any more
// (older than the newest one at least `ageTicks` before the commit) are dropped, so the list stays
// short. The backups are the backup system's, not the database's own tables: a restore keeps
// them, and first records the state it replaces if a scheduled tick has passed since the last
// commit, so a second restore finds every backup there was.
//
// The types are structural, so this module depends on nothing of the database's but the shape of
// its committed state: tables, a sequence and a history.

/** The committed state a backup copies. */
export interface BackedUpState<T, H> {
  readonly tables: T;
  readonly nextSeq: number;
  readonly history: H;
}

/** A backup: the committed state at every scheduled backup from `at` until the next backup's `at`. */
export interface DatabaseBackup<T, H> extends BackedUpState<T, H> {
  readonly at: number;
}

/** A database's durable state with its backups: the records, and the tick of its last commit (or restore). */
export interface WithBackups<T, H> extends BackedUpState<T, H> {
  readonly backups?: readonly DatabaseBackup<T, H>[];
  readonly lastCommitAt?: number;
}

/** When backups are scheduled, and how old the one a restore picks must be at least. */
export interface BackupSchedule {
  readonly everyTicks: number;
  readonly ageTicks: number;
}

/** The first scheduled backup after `tick` (the one at 0 when nothing was ever committed). */
const nextScheduled = (tick: number, every: number) => (Math.floor(tick / every) + 1) * every;

/** The backups with the current state recorded, when a scheduled backup has passed since the last commit, stamped with the first such tick. */
function recorded<T, H>(d: WithBackups<T, H>, s: BackupSchedule, now: number): readonly DatabaseBackup<T, H>[] {
  const backups = d.backups ?? [];
  const first = nextScheduled(d.lastCommitAt ?? -1, s.everyTicks);
  return first <= now ? [...backups, { at: first, tables: d.tables, nextSeq: d.nextSeq, history: d.history }] : backups;
}

/** Drops the backups no restore from `now` on can reach: those older than the newest one at least `ageTicks` old. */
function reachable<T, H>(backups: readonly DatabaseBackup<T, H>[], s: BackupSchedule, now: number): readonly DatabaseBackup<T, H>[] {
  let from = 0;
  while (from + 1 < backups.length && backups[from + 1]!.at <= now - s.ageTicks) from++;
  return from === 0 ? backups : backups.slice(from);
}

/** The durable state a commit at `now` starts from: the state it changes recorded as a backup where one was due. */
export function backedUp<D extends WithBackups<unknown, unknown>>(d: D, s: BackupSchedule, now: number): D {
  return { ...d, backups: reachable(recorded(d, s, now), s, now), lastCommitAt: now };
}

/**
 * The durable state a restore at `now` gives: the newest scheduled backup at least `ageTicks` old
 * (the empty database before the workload when none is that old, `empty`), its backups kept.
 */
export function restoredFromBackup<D extends WithBackups<unknown, unknown>>(d: D, s: BackupSchedule, now: number, empty: BackedUpState<D['tables'], D['history']>): D {
  const target = now - s.ageTicks;
  const backups = reachable(recorded(d, s, now), s, now);
  let state: BackedUpState<D['tables'], D['history']> = empty;
  if (target >= 0) {
    const scheduled = Math.floor(target / s.everyTicks) * s.everyTicks;
    // A scheduled backup after the last commit is the current state; an earlier one, the newest record at or before it.
    const found = scheduled > (d.lastCommitAt ?? -1) ? d : backups.filter((b) => b.at <= scheduled).at(-1);
    if (found !== undefined) state = found as BackedUpState<D['tables'], D['history']>;
  }
  return { ...d, tables: state.tables, nextSeq: state.nextSeq, history: state.history, backups, lastCommitAt: now };
}
