// Windows mode and check mode build their rows through one builder (src/windowRow.ts): a check
// row's retry owner, guard, evidence and end difference are all read off its worst path, and the
// crash's interrupted work and the guards a fault called on are read beside that path's fault-free
// counterpart, as windows mode reads them beside its fault-free run. So where both modes'
// representatives are the same run up to interleaving, the two rows agree on owner and guard.
import { beforeAll, describe, expect, it } from 'vitest';
import { check, checkSetup, runChoices, type CheckResult } from '../../src/check/check.ts';
import { decodeChoices } from '../../src/check/choicePath.ts';
import { endDifferenceOf } from '../../src/endDifference.ts';
import { formatPlace } from '../../src/place.ts';
import { observedOwner } from '../../src/report/windowCells.ts';
import { runWindows, type WindowRow, type WindowsResult } from '../../src/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const find = (rows: readonly WindowRow[], place: string, fault: string) => rows.find((r) => formatPlace(r.place) === place && r.fault === fault)!;

describe('a check row and the windows row for the same fault', () => {
  let checked: CheckResult;
  let windows: WindowsResult;
  beforeAll(() => {
    checked = check(outbox, { faults: 1 });
    windows = runWindows(outbox);
  }, 120_000);

  it.each([
    ['relay.beforeRelaySend', 'crash', 'relay', []],
    ['relay.afterRelaySend', 'crash', 'relay', ['inboxKey']],
    ['relay.afterBrokerAccept', 'crash', 'relay', ['inboxKey']],
    ['consumer.received', 'crash', 'broker', []],
    ['consumer.connecting', 'crash', 'consumer', []],
    ['relay->broker:broker.publish', 'lose', 'relay', []],
    ['relay->broker:broker.publish', 'duplicate', 'nobody', ['inboxKey']],
    ['broker->consumer:broker.deliver', 'lose', 'broker', []],
  ] as const)('%s %s: both show %s owning the retry, and the same guards', (place, fault, owner, guards) => {
    const c = find(checked.rows, place, fault);
    const w = find(windows.rows, place, fault);
    expect(observedOwner(c)).toBe(owner);
    expect(observedOwner(w)).toBe(owner);
    expect(c.guards).toEqual(guards);
    expect(w.guards).toEqual(guards);
  });

  it('takes every check row\'s evidence and end difference from the path its replay line names', () => {
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
