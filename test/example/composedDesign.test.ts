// The design docs/composing.md draws from machines directly: it runs as a scenario, its verdict
// is the one it declares, and the page shows this very file, so the example cannot drift from
// code that runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runWindows } from 'faultline';
import composed from './composedDesign.ts';
import { docsPage, markdownSection } from '../docs/markdownSection.ts';

// Each test that judges the sweep makes it itself (vitest.mutants.config.ts says why).
describe('the composed design of docs/composing.md', () => {
  it('is violated as it expects, and only by the unguarded credit', () => {
    const result = runWindows(composed);
    expect(result.judgement.asExpected).toBe(true);
    expect(result.judgement.found).toEqual(['duplicate effect']);
    const effects = new Set(result.counterexamples.flatMap((c) => c.findings.map((f) => f.effect)));
    expect([...effects]).toEqual(['loyalty credit']);
  });

  it('strikes the windows of both consumer groups', () => {
    const result = runWindows(composed);
    const windows = new Set(result.rows.map((r) => r.place).filter((p) => p.kind === 'window').map((p) => (p as { component: string }).component));
    expect(windows).toEqual(new Set(['publisher', 'inventory', 'loyalty']));
  });

  it('is the code block the page shows', () => {
    const section = markdownSection('Drawing a component by hand', docsPage('composing'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(new URL('./composedDesign.ts', import.meta.url), 'utf8'));
  });
});
