// What a run tells GitHub Actions: an `::error` annotation per verdict not as expected, on its
// scenario's file, escaped as the runner reads workflow commands back; a job summary in Markdown;
// and nothing at all outside GitHub Actions.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations, jobSummary, reportToCi, type CiRow } from '../../src/cli/ciReport.ts';

const bad: CiRow = { name: 'a,b', file: '/repo/designs/x: y.ts', verdict: 'violated', expected: 'holds', asExpected: false, problems: ['100% of runs', 'line\nbreak'], worst: 'w | x', replay: "npx faultline replay x --plan '[]'" };
const good: CiRow = { name: 'ok', file: undefined, verdict: 'holds', expected: 'holds', asExpected: true, problems: [] };

describe('GitHub Actions', () => {
  it('annotates each verdict not as expected on its file, escaping what the runner would misread', () => {
    expect(annotations('windows', [good, bad], '/repo')).toEqual([
      "::error file=designs/x%3A y.ts,title=faultline windows%3A a%2Cb::a,b: expected holds, got violated%0A100%25 of runs%0Aline%0Abreak%0Areplay: npx faultline replay x --plan '[]'",
    ]);
  });

  it('summarises the run, the scenarios not as expected first, with a cell never broken by a pipe', () => {
    const md = jobSummary('check', [good, bad]);
    expect(md.split('\n').slice(0, 7)).toEqual([
      '### faultline check',
      '',
      '2 scenarios, **1 not as expected**.',
      '',
      '| scenario | verdict | expected | status | worst window | replay the first counterexample |',
      '| --- | --- | --- | --- | --- | --- |',
      "| `a,b` | violated | holds | **NOT as expected** | w \\| x | `npx faultline replay x --plan '[]'` |",
    ]);
  });

  it('writes only in GitHub Actions, and appends to the summary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-ci-'));
    const file = join(dir, 'summary.md');
    writeFileSync(file, 'before\n');
    const lines: string[] = [];
    reportToCi('windows', [bad], (l) => lines.push(l), { GITHUB_STEP_SUMMARY: file });
    expect(lines).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('before\n');
    reportToCi('windows', [bad], (l) => lines.push(l), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file });
    expect(lines).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(`before\n${jobSummary('windows', [bad])}`);
  });
});
