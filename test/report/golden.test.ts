// Golden reports for fixed seeds: the checked-in examples in reports/example/ are exactly what
// windows mode writes today, so any change that alters exploration, outcomes or wording shows up
// as a diff to review. To regenerate them, write the Markdown form of the two and copy the pages:
// `node bin/faultline.js windows mercury-outbox mercury-dual-write-commit-first --reporter md --out /tmp/golden`,
// then `cp /tmp/golden/mercury-outbox.md /tmp/golden/mercury-dual-write-commit-first.md reports/example/`
// (`--out reports/example` is refused: a report set replaces its whole folder, and this one
// holds files that no report set wrote).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderMarkdownFile } from '../../src/report/markdown.ts';
import { runWindows } from '../../src/modes/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';

const dir = join(import.meta.dirname, '..', '..', 'reports', 'example');

describe('golden reports', () => {
  it.each([outbox, commitFirst].map((s) => [s.name, s] as const))('%s matches reports/example', (name, scenario) => {
    const golden = readFileSync(join(dir, `${name}.md`), 'utf8');
    expect(renderMarkdownFile(runWindows(scenario))).toBe(golden);
  });
});
