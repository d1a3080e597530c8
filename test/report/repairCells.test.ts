// The repair-query cell of a failure-window row: every row whose run violated a claim names the
// query that finds the damage, built from the claim's declared tables and the finding's kind, or
// says in words why no query finds it (a run that never went quiet, a claim that declares no
// tables), never a bare dash. The query texts of each form are pinned here; whether they find
// exactly the finding's keys is run on PostgreSQL in test/models/postgres/repairQueries.test.ts;
// that no violated row of the catalogue goes without one is asserted by test/e2e/catalogue.test.ts,
// over the sweep it runs anyway.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/checkers/finding.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import { queryForms, repairQueryOf } from '../../src/analysis/repairQuery.ts';
import { repairIsSql, repairQueryText } from '../../src/report/windowCells.ts';

const base: Claim = { effect: 'stats row', key: ['book_id'], authority: 'the stats table', lifetime: 'for ever', outcomes: () => [], facts: () => [] };

describe('the query forms a claim declares', () => {
  const claim: Claim = {
    ...base,
    key: ['book_id', 'version'],
    guarantee: 'atLeastOnce',
    sameIntent: 'the same row',
    differentIntent: 'is refused',
    unknownCompletion: 'a lookup',
    finality: 'never revised',
    versions: () => ({}),
    replies: () => [],
    conflicts: () => [],
    unresolved: () => [],
    revisions: () => [],
    tables: {
      effect: { table: 'applied', key: ['book_id', 'version'], where: "$kind = 'result' OR $kind = 'late'", format: '{0}@v{1}' },
      source: { table: 'published', key: ['book_id', '1'], where: '$ok' },
      causes: { table: 'published', key: ['book_id', 'version'] },
      history: { table: 'applied_history', key: ['book_id'], version: 'version', order: 'seq' },
      replays: { table: 'replies', key: ['intent'], where: '$ok' },
      conflicts: { table: 'outcomes', key: ['key', 'intent'], where: "$state = 'SUCCEEDED'", format: '{0} ({1})' },
      unresolved: [
        { table: 'intents', key: ['key', "'intent PENDING'"], where: "$state = 'PENDING'", format: '{0} ({1})' },
        { table: 'outcomes', key: ['key', "'outcome UNKNOWN'"], where: "$state = 'UNKNOWN'" },
      ],
      revisions: { table: 'posts', key: ['window_id'], where: '$late', format: 'w{0}' },
    },
  };
  const forms = new Map(queryForms(claim).map((f) => [f.violation, f]));

  it('writes one query per violation the claim reports, and none for what it accepts', () => {
    // At least once: a repeat is accepted, so no duplicate query; a stuck run has no query form.
    expect([...forms.keys()]).toEqual(['phantom effect', 'lost effect', 'order regression', 'conflict mishandled', 'replay mismatch', 'unresolved unknown outcome', 'silent revision']);
  });

  it('brackets a condition that holds an OR, and fills a constant of the key in from the declaration', () => {
    const lost = forms.get('lost effect')!;
    expect(lost.sql).toBe("SELECT DISTINCT s.book_id FROM published s WHERE NOT EXISTS (SELECT 1 FROM applied e WHERE e.book_id = s.book_id AND e.version = 1 AND (e.kind = 'result' OR e.kind = 'late')) AND s.ok;");
    expect(lost.keyOf(['b-1'])).toBe('b-1|1');
    const phantom = forms.get('phantom effect')!;
    expect(phantom.sql).toBe("SELECT DISTINCT e.book_id, e.version FROM applied e WHERE NOT EXISTS (SELECT 1 FROM published s WHERE s.book_id = e.book_id AND s.version = e.version) AND (e.kind = 'result' OR e.kind = 'late');");
    expect(phantom.keyOf(['b-1', 2])).toBe('b-1@v2');
  });

  it('finds an order regression as a version applied after a higher one of the same key', () => {
    const f = forms.get('order regression')!;
    expect(f.sql).toBe('SELECT DISTINCT h.book_id FROM (SELECT e.book_id, e.version AS applied, lag(e.version) OVER (PARTITION BY e.book_id ORDER BY e.seq) AS before FROM applied_history e) h WHERE h.applied < h.before;');
    expect(f.keyOf(['b-1'])).toBe('b-1');
  });

  it('finds the other kinds as the rows of their tables that meet the condition, a union named by the first format', () => {
    expect(forms.get('replay mismatch')!.sql).toBe('SELECT DISTINCT f.intent FROM replies f WHERE f.ok;');
    expect(forms.get('conflict mishandled')!.keyOf(['k-1', 'i-2'])).toBe('k-1 (i-2)');
    const unresolved = forms.get('unresolved unknown outcome')!;
    expect(unresolved.sql).toBe(
      "SELECT DISTINCT f.key, 'intent PENDING' FROM intents f WHERE f.state = 'PENDING' UNION SELECT DISTINCT f.key, 'outcome UNKNOWN' FROM outcomes f WHERE f.state = 'UNKNOWN';",
    );
    expect(unresolved.keyOf(['o-1', 'outcome UNKNOWN'])).toBe('o-1 (outcome UNKNOWN)');
    expect(forms.get('silent revision')!.keyOf([3])).toBe('w3');
  });

  it('leaves out a query whose observer the claim does not supply: that clause is not checked', () => {
    const { versions: _v, replies: _r, ...unobserved } = claim;
    const kinds = queryForms(unobserved).map((f) => f.violation);
    expect(kinds).not.toContain('order regression');
    expect(kinds).not.toContain('replay mismatch');
  });
});

describe('a violated row with no query', () => {
  const stuck: Finding = { violation: 'stuck', effect: 'stats row', reason: { kind: 'no quiescence', ticks: 50 } };
  const lost: Finding = { violation: 'lost effect', effect: 'stats row', key: 'b-1' };

  it('says a stuck run leaves nothing a query finds, rather than a dash', () => {
    const q = repairQueryOf([{ ...base, tables: { effect: { table: 'book_stats', key: ['book_id'] } } }], 'stuck', [stuck], false)!;
    expect(q.role).toBe('none');
    const row = { repair: q };
    expect(repairIsSql(row)).toBe(false);
    expect(repairQueryText(row)).toMatch(/^no query finds this in the data: the run never went quiet: a process was still working or waiting/);
  });

  it('names the table a claim would have to declare, or that it declares none', () => {
    expect(repairQueryText({ repair: repairQueryOf([base], 'lost effect', [lost], false) })).toBe('no query finds this in the data: the claim on stats row declares no tables to query (keys b-1)');
    const effectOnly = { ...base, tables: { effect: { table: 'book_stats', key: ['book_id'] } } };
    expect(repairQueryText({ repair: repairQueryOf([effectOnly], 'lost effect', [lost], false) })).toBe(
      'no query finds this in the data: the claim on stats row does not declare the source table its facts are committed in (keys b-1)',
    );
  });

  it('takes the query of a later claim when the first one with findings gives none', () => {
    const other = { ...base, effect: 'other row', tables: { effect: { table: 'other', key: ['id'] }, source: { table: 'facts', key: ['id'] } } };
    const q = repairQueryOf([base, other], 'lost effect', [lost, { ...lost, effect: 'other row', key: 'x' }], false)!;
    expect(q).toEqual({ role: 'repair', sql: 'SELECT DISTINCT s.id FROM facts s WHERE NOT EXISTS (SELECT 1 FROM other e WHERE e.id = s.id);', keys: ['x'] });
  });

  it('leaves a held row of a claim without tables empty: there is no damage to look for', () => {
    expect(repairQueryOf([base], 'holds', [], false)).toBeUndefined();
  });
});
