// The one place a finding becomes a sentence, for the terminal and every report form alike: each
// violation must name its keys and figures, and each reason a run was stuck must say why.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/checkers/finding.ts';
import { describeFinding, describeStuck } from '../../src/report/describeFinding.ts';

describe('describeFinding', () => {
  it.each<[Finding, string]>([
    [{ violation: 'duplicate effect', effect: 'reservation', key: 'o-1|1', count: 3 }, '3 committed outcomes for key o-1|1'],
    [{ violation: 'lost effect', effect: 'inventory reservation', key: 'o-1|1' }, 'committed fact o-1|1 has no inventory reservation'],
    [{ violation: 'lost effect', effect: "a window's first result, posted within 15 m of its end", key: 'w0' }, "committed fact w0 has no window's first result, posted within 15 m of its end"],
    [{ violation: 'lost effect', effect: 'the cutover to the rebuilt results', key: 'v2' }, 'committed fact v2 has no cutover to the rebuilt results'],
    [{ violation: 'lost effect', effect: 'another book', key: 'b1' }, 'committed fact b1 has no another book'],
    [{ violation: 'phantom effect', effect: 'capture', key: 'pay-7' }, 'capture pay-7 has no committed source fact'],
    [{ violation: 'order regression', effect: 'projection', key: 'o-2', from: 3, to: 2 }, 'o-2 moved from version 3 back to 2'],
    [{ violation: 'conflict mishandled', effect: 'capture', key: 'k-1' }, 'a different intent under key k-1 was not refused'],
    [{ violation: 'replay mismatch', effect: 'capture', key: 'pay o-1', first: 'ch_1', then: 'ch_2' }, 'intent pay o-1 got ch_1 and then ch_2'],
    [{ violation: 'unresolved unknown outcome', effect: 'capture', key: 'pay-9' }, 'outcome for pay-9 is still unknown at quiescence'],
    [{ violation: 'stuck', effect: 'capture', reason: { kind: 'no quiescence', ticks: 4000 } }, 'no quiescence within 4000 ticks after healing'],
  ])('%j', (finding, sentence) => {
    expect(describeFinding(finding)).toBe(sentence);
  });
});

describe('describeStuck', () => {
  it('says which bound stopped the run, and where', () => {
    expect(describeStuck({ kind: 'steps', bound: 200000, phase: 'safety' })).toBe('step bound 200000 reached in the safety phase');
    expect(describeStuck({ kind: 'steps', bound: 200000, phase: 'liveness' })).toBe('step bound 200000 reached');
    expect(describeStuck({ kind: 'waiting', components: ['relay.polling', 'consumer.applying'] })).toBe('nothing left to happen while relay.polling, consumer.applying waits');
  });
});
