// Every cell of a failure-window row is read off the row's representative run: the retry owner
// shown is the one the run's trace shows re-sending the work, a lost effect is owned by nobody
// unless a re-send is in the trace, and evidence never opens with a separator.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue.ts';
import { formatPlace } from '../../src/place.ts';
import { componentNames, declaredOwner, observedOwner, retryOwnerText, windowCells } from '../../src/report/windowCells.ts';
import { runWindows } from '../../src/windows.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

describe('observed cells on every catalogue scenario', async () => {
  const catalogue = await loadCatalogue();
  it.each(catalogue.map((e) => [e.scenario.name, e.scenario] as const))('%s', (_name, scenario) => {
    const result = runWindows(scenario);
    const names = componentNames(result);
    for (const row of result.rows) {
      const cells = windowCells(row, names);
      expect(cells.evidence).not.toMatch(/^\s*[·;,]/);
      const owner = observedOwner(row);
      if (row.struck === 0) continue;
      expect(cells.retryOwner.startsWith(owner === 'nobody' ? (row.retry?.kind === 'nobody' ? 'nobody' : 'none needed') : `${owner}:`)).toBe(true);
      if (row.outcome === 'lost effect' && row.retry?.kind !== 'resent') expect(cells.retryOwner).toMatch(/^nobody/);
      if (row.retry?.kind === 'resent') expect(names).toContain(row.retry.component);
    }
  }, 120_000);
});

describe('mercury rows', () => {
  const row = (result: ReturnType<typeof runWindows>, window: string) => result.rows.find((r) => r.fault === 'crash' && r.place.kind === 'window' && `${r.place.component}.${r.place.state}` === window)!;

  it('commit-first: the lost order is owned by nobody, and the end state shows it', () => {
    const result = runWindows(commitFirst);
    const r = row(result, 'source.afterSourceCommit');
    expect(r.outcome).toBe('lost effect');
    expect(r.retry).toEqual({ kind: 'nobody' });
    const cells = windowCells(r, componentNames(result));
    expect(cells.evidence).toContain('at the end: o-1|1 committed in orders, missing from reservations');
    expect(cells.repairQuery).toBe("SELECT s.order_id FROM orders s WHERE NOT EXISTS (SELECT 1 FROM reservations e WHERE e.order_id = s.order_id AND e.reservation_version = 1) AND s.status = 'ACCEPTED'; -- finds o-1|1");
    // The crash while committing loses the order's event too: the client here makes one attempt.
    const committing = row(result, 'source.committing');
    expect(committing.outcome).toBe('lost effect');
    expect(committing.retry).toEqual({ kind: 'nobody' });
    expect(windowCells(committing, componentNames(result)).retryOwner).toMatch(/^nobody: the lost work was never sent again · nobody: the client makes one attempt/);
  });

  it('outbox: a lost publish is re-sent by the relay, and a row that held gets a check', () => {
    const result = runWindows(outbox);
    const lost = result.rows.find((r) => r.fault === 'lose' && r.place.kind === 'point' && r.place.type === 'broker.publish')!;
    expect(lost.retry).toMatchObject({ kind: 'resent', component: 'relay', message: 'broker.publish' });
    const cells = windowCells(row(result, 'relay.recordingProgress'), componentNames(result));
    expect(cells.retryOwner).not.toMatch(/relay poll/);
    expect(cells.repairQuery).toMatch(/^check: SELECT /);
  });

  it.each([commitFirst, outbox].map((s) => [s.name, s] as const))('%s: every declared note names the component the run observed', (_name, scenario) => {
    const result = runWindows(scenario);
    const names = componentNames(result);
    const disagreements = result.rows
      .filter((r) => r.struck > 0 && r.note !== undefined)
      .map((r) => ({ row: `${formatPlace(r.place)} ${r.fault}`, declared: declaredOwner(r.note!.retryOwner, names), observed: observedOwner(r) }))
      .filter((d) => d.declared !== undefined && d.declared !== d.observed);
    expect(disagreements).toEqual([]);
  });

  it('a declared note is shown only beside the component the run observed', () => {
    const note = { retryOwner: 'client retry' };
    expect(retryOwnerText({ retry: { kind: 'nobody' }, note }, ['client', 'source'])).toBe('nobody: the lost work was never sent again');
    expect(retryOwnerText({ retry: { kind: 'resent', component: 'client', message: 'cmd', to: 'source', tick: 9 }, note }, ['client', 'source'])).toBe('client: sent cmd to source again (t=9) · client retry');
  });
});
