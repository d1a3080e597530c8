// The twelve-component design of docs/worked-example.md, written from docs/ alone: it runs as a
// scenario, its verdict is the one the page explains (one duplicate carrier pickup, after a crash
// of the carrier outlasts the key it keeps), and the page shows this very file. The package test
// (test/e2e/package.test.ts) type-checks the same block under a default `tsc --init` against the
// packed package.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compose, defineScenario, formatPlace, runWindows, type DesignBuild } from 'faultline';
import { provider } from 'faultline/models/provider.ts';
import { timeScaleOf } from '../../src/scenario/scenario.ts';
import ordersShipping from './ordersShipping.ts';
import { docsPage, markdownSection } from '../docs/markdownSection.ts';

describe('the worked example of docs/worked-example.md', () => {
  it('is violated as it expects: the pickup claim, at one place, while the shipment rows hold', () => {
    const result = runWindows(ordersShipping);
    expect(result.judgement.asExpected).toBe(true);
    expect(result.judgement.found).toEqual(['duplicate effect']);
    expect(ordersShipping.build(ordersShipping.workload, timeScaleOf(ordersShipping)).map((c) => c.name)).toHaveLength(12);
    const broken = result.rows.filter((r) => r.outcome !== 'holds');
    expect(broken.map((r) => `${r.fault} ${formatPlace(r.place)}`)).toEqual(['crash carrier.afterExternalEffect']);
    const effects = new Set(result.counterexamples.flatMap((c) => c.findings.map((f) => f.effect)));
    expect([...effects]).toEqual(['carrier pickup']);
  });

  // The page's two remedies, each a sweep of the design with the carrier changed.
  it.each([
    ['keeps its key three days', { keyRetention: '3d', restartAfter: '30h' }],
    ['is never down longer than 20 hours', { keyRetention: '24h', restartAfter: '20h' }],
  ] as const)('holds once the carrier %s', (_, carrier) => {
    const build: DesignBuild = (workload, time) => {
      const [changed] = compose(provider({ name: 'carrier', idempotency: 'intentBound', statusLookup: 'byKey', ...carrier }))(workload, time);
      return ordersShipping.build(workload, time).map((c) => (c.name === 'carrier' ? changed! : c));
    };
    const result = runWindows(defineScenario({ ...ordersShipping, build, expect: { verdict: 'holds' } }));
    expect(result.judgement.verdict).toBe('holds');
  });

  it('is the code block the page shows', () => {
    const section = markdownSection('Worked example: orders to a carrier pickup', docsPage('worked-example'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(new URL('./ordersShipping.ts', import.meta.url), 'utf8'));
  });
});
