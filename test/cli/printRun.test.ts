// How one run reads on the terminal. A clause that could not be decided must show as unknown
// with its reason, and must not let "every claim holds" be printed; colour is for a terminal
// that wants it, never for a pipe or NO_COLOR.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClaimVerdict } from '../../src/checkers/compose.ts';
import { printRun, type PrintableRun } from '../../src/cli/printRun.ts';
import { colorLevel, styleFor, table } from '../../src/cli/style.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const claims = outbox.claims;
const verdict = (clauses: ClaimVerdict['clauses']): ClaimVerdict => ({ effect: 'inventory reservation', outcome: 'holds', clauses, findings: [] });

function printed(run: Partial<PrintableRun>): string[] {
  const lines: string[] = [];
  printRun((t) => lines.push(t), styleFor(0), {
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

describe('colour', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('paints at the level it is given, and not at all at level 0', () => {
    expect(styleFor(1).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor(0).red('x')).toBe('x');
  });

  it('follows FORCE_COLOR first, then NO_COLOR, then what chalk detected of the stream', () => {
    // Piped (chalk detects 0) with FORCE_COLOR=1: chalk itself turns colour on, and it stays on.
    expect(colorLevel({ FORCE_COLOR: '1' }, 1)).toBe(1);
    // A terminal (chalk detects 3 without FORCE_COLOR) with FORCE_COLOR=0: chalk turns it off.
    expect(colorLevel({ FORCE_COLOR: '0' }, 0)).toBe(0);
    // NO_COLOR, which chalk does not read, turns a terminal plain, unless FORCE_COLOR says otherwise.
    expect(colorLevel({ NO_COLOR: '1' }, 3)).toBe(0);
    expect(colorLevel({ NO_COLOR: '' }, 3)).toBe(3);
    expect(colorLevel({ NO_COLOR: '1', FORCE_COLOR: '2' }, 2)).toBe(2);
    expect(colorLevel({}, 0)).toBe(0);
  });

  it('pads table columns to their widest cell and trims the line end', () => {
    expect(table([['a', 'bb', 'c'], ['ccc', 'd', '']])).toBe('a    bb  c\nccc  d');
  });
});
