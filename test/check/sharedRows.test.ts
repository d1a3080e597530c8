// Windows mode and check mode build their rows through one builder (src/modes/windowRow.ts): a check
// row's retry owner, guard, evidence and end difference are all read off its worst path, and the
// crash's interrupted work and the guards a fault called on are read beside that path's fault-free
// counterpart, as windows mode reads them beside its fault-free run. So where both modes'
// representatives are the same run up to interleaving, the two rows agree on owner and guard.
import { describe, expect, it } from 'vitest';
import { check, checkSetup, runChoices } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { endDifferenceOf } from '../../src/analysis/endDifference.ts';
import { formatPlace } from '../../src/faults/place.ts';
import { observedOwner } from '../../src/report/windowCells.ts';
import { runWindows, type WindowRow } from '../../src/modes/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const find = (rows: readonly WindowRow[], place: string, fault: string) => rows.find((r) => formatPlace(r.place) === place && r.fault === fault)!;

/** The faults both modes strike, each with the component both must show owning the retry, and the guards both must show. */
const SAME = [
  ['relay.beforeRelaySend', 'crash', 'relay', []],
  ['relay.afterRelaySend', 'crash', 'relay', ['inboxKey']],
  ['relay.afterBrokerAccept', 'crash', 'relay', ['inboxKey']],
  ['consumer.received', 'crash', 'broker', []],
  ['consumer.connecting', 'crash', 'consumer', []],
  ['relay->broker:broker.publish', 'lose', 'relay', []],
  ['relay->broker:broker.publish', 'duplicate', 'nobody', ['inboxKey']],
  ['broker->consumer:broker.deliver', 'lose', 'broker', []],
] as const;

// Both runs happen inside the one test that judges them (vitest.mutants.config.ts says why).
describe('a check row and the windows row for the same fault', () => {
  it('show the same retry owner and the same guards, and every check row takes its evidence and end difference from the path its replay line names', () => {
    const checked = check(outbox, { faults: 1 });
    const windows = runWindows(outbox);

    for (const [place, fault, owner, guards] of SAME) {
      const what = `${place} ${fault}`;
      const c = find(checked.rows, place, fault);
      const w = find(windows.rows, place, fault);
      expect(observedOwner(c), `${what}: the check row's retry owner`).toBe(owner);
      expect(observedOwner(w), `${what}: the windows row's retry owner`).toBe(owner);
      expect(c.guards, `${what}: the check row's guards`).toEqual(guards);
      expect(w.guards, `${what}: the windows row's guards`).toEqual(guards);
    }

    const setup = checkSetup(outbox, { faults: 1 });
    const rows = checked.rows.filter((r) => r.replay?.kind === 'choices');
    expect(rows.length).toBe(checked.rows.length);
    for (const row of rows) {
      const run = runChoices(outbox, setup, decodeChoices(row.replay!.kind === 'choices' ? row.replay!.choices : ''));
      const strike = run.strikes[0]!;
      expect(row.evidence?.tick).toBe(strike.tick);
      expect(row.evidence?.inFlight).toEqual(strike.inFlight);
      expect(row.evidence?.end).toEqual(endDifferenceOf(run.outcome, run.findings, outbox.claims));
      expect(row.outcome).toBe(run.outcome);
      expect(row.plan).toEqual(run.plan);
    }
  });
});
