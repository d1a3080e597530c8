// How one run reads on the terminal. A clause that could not be decided must show as unknown
// with its reason, and must not let "every claim holds" be printed; colour is for a terminal
// that wants it, never for a pipe or NO_COLOR.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClaimVerdict } from '../../src/checkers/compose.ts';
import { printRun, type PrintableRun } from '../../src/cli/printRun.ts';
import { styleFor, table } from '../../src/cli/style.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const claims = outbox.claims;
const verdict = (clauses: ClaimVerdict['clauses']): ClaimVerdict => ({ effect: 'inventory reservation', outcome: 'holds', clauses, findings: [] });

function printed(run: Partial<PrintableRun>): string[] {
  const lines: string[] = [];
  printRun((t) => lines.push(t), styleFor(false), {
    claims,
    plan: [],
    seed: 1,
    size: 2,
    findings: [],
    trace: [],
    traceHash: 'ab'.repeat(32),
    replay: { kind: 'plan', scenario: 'mercury-outbox', seed: 1, plan: [] },
    ...run,
  });
  return lines;
}

describe('printRun', () => {
  it('says every claim holds only when nothing was found and every clause was decided', () => {
    const lines = printed({ claimVerdicts: [verdict([{ clause: 'liveness', status: 'holds', findings: [] }])] });
    expect(lines).toContain('every claim holds');
    expect(lines[1]).toBe('plan   no faults (simulation seed 1, workload 2)');
    expect(lines.at(-2)).toBe(`trace hash ${'ab'.repeat(32)}`);
    expect(lines.at(-1)).toBe("replay npx faultline replay mercury-outbox --seed 1 --plan '[]'");
  });

  it('shows an undecided clause as unknown with its reason, and then does not claim that everything holds', () => {
    const lines = printed({
      claimVerdicts: [verdict([{ clause: 'versions', status: 'unknown', findings: [], reason: 'no table projections' }, { clause: 'phantom', status: 'unknown', findings: [] }])],
    });
    expect(lines).not.toContain('every claim holds');
    expect(lines).toContain('unknown: inventory reservation: versions never move backwards could not be decided: no table projections');
    expect(lines).toContain('unknown: inventory reservation: no effect without a committed fact could not be decided: no reason given');
  });

  it('prefixes clause lines with the effect only when the run has more than one claim', () => {
    const two = printed({ claims: [claims[0]!, claims[0]!], claimVerdicts: [verdict([{ clause: 'sameIntent', status: 'not checked', findings: [] }])] });
    expect(two).toContain('inventory reservation: the same intent returns the recorded result: not checked (the claim gives no observer for it)');
    const one = printed({ claimVerdicts: [verdict([{ clause: 'sameIntent', status: 'not exercised', findings: [] }])] });
    expect(one).toContain('the same intent returns the recorded result: not exercised (no run gave it anything to judge)');
  });
});

describe('styleFor', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('colours a terminal, and nothing else', () => {
    vi.stubEnv('NO_COLOR', '');
    expect(styleFor(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor(false).red('x')).toBe('x');
  });

  it('leaves a terminal plain when NO_COLOR is set to anything', () => {
    vi.stubEnv('NO_COLOR', '1');
    expect(styleFor(true).red('x')).toBe('x');
  });

  it('pads table columns to their widest cell and trims the line end', () => {
    expect(table([['a', 'bb', 'c'], ['ccc', 'd', '']])).toBe('a    bb  c\nccc  d');
  });
});
