// The benchmark's SPIN model (bench/spin/mercury.pml) gives the five Mercury designs the same
// verdicts as the faultline scenarios they mirror, and its runner reads pan's report correctly.
// The model checks need spin and gcc on PATH; without them they are skipped, and the test's
// name says why. The report-reading checks run everywhere.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parsePan, runSpin, SPIN_DESIGN_NAMES, spinAvailable, SpinError } from '../../bench/spin/runSpin.ts';
import { expectedAt } from '../../src/scenario/scenario.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';

const available = spinAvailable();
const SKIPPED = 'skipped: spin or gcc is not on PATH (apt-get install -y spin gcc)';
const title = available ? 'the SPIN model of the Mercury pipeline (2 orders, gcc -O0)' : `the SPIN model of the Mercury pipeline (${SKIPPED})`;
// The summary line only counts skipped tests; this says why they were skipped.
if (!available) console.warn(`SPIN model checks ${SKIPPED}`);

describe.skipIf(!available)(title, () => {
  it.each(SPIN_DESIGN_NAMES)('with one crash, %s gets the faultline scenario’s verdict', async (design) => {
    const { scenario } = await loadScenario(design);
    const r = runSpin({ design, orders: 2, crashes: 1, opt: 'O0' });
    const expected = expectedAt(scenario.expect, 1);
    expect(r.verdict).toBe(expected.verdict);
    if (expected.verdict === 'violated') expect(expected.violations).toContain(r.violation);
    else expect(r.violation).toBeUndefined();
    expect(r.states).toBeGreaterThan(0);
    expect(r.transitions).toBeGreaterThanOrEqual(r.states);
  });

  it.each(SPIN_DESIGN_NAMES)('with no crash, %s holds (every violation needs a crash)', (design) => {
    const r = runSpin({ design, orders: 2, crashes: 0, opt: 'O0' });
    expect(r.verdict).toBe('holds');
  });

  it('leaves no temporary directory behind', () => {
    const before = new Set(readdirSync(tmpdir()).filter((d) => d.startsWith('faultline-spin-')));
    runSpin({ design: 'mercury-dual-write-commit-first', orders: 1, crashes: 1, opt: 'O0' });
    const after = readdirSync(tmpdir()).filter((d) => d.startsWith('faultline-spin-') && !before.has(d));
    expect(after).toEqual([]);
  });
});

describe("reading pan's report", () => {
  const report = (lines: string) => `${lines}
State-vector 84 byte, depth reached 67, errors: ERRORS
     2215 states, stored
     2899 states, matched
     5114 transitions (= stored+matched)
    8.827	total actual memory usage
pan: elapsed time 0 seconds
`;

  it('reads the figures and a holding verdict', () => {
    expect(parsePan(report('').replace('ERRORS', '0'))).toEqual({ verdict: 'holds', states: 2215, transitions: 5114, depth: 67, memoryMB: 8.827 });
  });

  it("names a violated property in the claim's words", () => {
    const r = parsePan(report('pan:1: assertion violated  !(phantom_effect) (at depth 33)\npan: wrote mercury.pml.trail').replace('ERRORS', '1'));
    expect(r.verdict).toBe('violated');
    expect(r.violation).toBe('phantom effect');
  });

  it('reports an invalid end state as a stuck run', () => {
    expect(parsePan(report('pan:1: invalid end state (at depth 12)').replace('ERRORS', '1')).violation).toBe('stuck (invalid end state)');
  });

  it('refuses a search cut short by the depth bound, even with no error found', () => {
    expect(() => parsePan(report('error: max search depth too small').replace('ERRORS', '0'))).toThrow(SpinError);
  });
});
