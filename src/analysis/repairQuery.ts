// The query that finds in production the damage a window's finding points at, written from the
// claim's declared tables and the finding's kind, never typed per window: a lost effect is a
// source fact with no effect row (an anti-join), a duplicate is an effect key counted twice, a
// phantom is an effect row with no source fact (the reverse anti-join), an order regression is a
// version applied after a higher one in the effect's history, and a replay mismatch, a mishandled
// conflict, an unresolved outcome or a silent revision is a row of the table the claim names for
// it that meets that table's condition. A window where every run held gets the query that would
// catch the damage it could cause, labelled a check. A run that never went quiet has no query:
// what went wrong is a process still working or waiting, which no table records, and the row
// says so in words rather than leaving the cell blank.
import type { Finding, RunOutcome, Violation } from '../checkers/finding.ts';
import type { Claim, ClaimTable, VersionHistory } from '../checkers/claims.ts';

/** A query for one window row: what it looks for and the SQL, or why no query finds it. */
export type RepairQuery =
  | {
      /** `repair` when the row's worst run found this damage; `check` when the row held. */
      readonly role: 'repair' | 'check';
      readonly sql: string;
      /** The keys the finding named, so a reader can look for exactly them. */
      readonly keys: readonly string[];
    }
  | {
      /** The row's worst run found damage that no query over the declared tables finds. */
      readonly role: 'none';
      /** Why, in a sentence a reader can act on. */
      readonly why: string;
      readonly keys: readonly string[];
    };

/** One query a claim's tables give: the violation it finds, its SQL, and how a returned row names a finding's key. */
export interface QueryForm {
  readonly violation: Violation;
  readonly sql: string;
  /** The finding's key a returned row stands for, from the row's values in select order. */
  readonly keyOf: (row: readonly unknown[]) => string;
}

// A key entry that is a number or a quoted string is a constant the table implies (every order's
// reservation is version 1), not a column; one that holds `$` is an expression over the row.
const isConstant = (k: string) => /^[0-9']/.test(k);
const isExpression = (k: string) => k.includes('$');
const over = (alias: string, sql: string) => sql.replace(/\$/g, `${alias}.`);
const ref = (alias: string, k: string) => (isConstant(k) ? k : isExpression(k) ? over(alias, k) : `${alias}.${k}`);
const columnsOf = (t: ClaimTable) => t.key.filter((k) => !isConstant(k));
const cols = (alias: string, t: ClaimTable) => columnsOf(t).map((k) => ref(alias, k)).join(', ');
const joined = (a: string, at: ClaimTable, b: string, bt: ClaimTable) => at.key.map((k, i) => `${ref(a, k)} = ${ref(b, bt.key[i]!)}`).join(' AND ');
// A table's `where` names its columns `$column`, so the condition reads against any alias; one
// that holds an OR is bracketed, so the AND that joins it to the query's own binds it whole.
const condition = (alias: string, where: string) => (/\bOR\b/i.test(where) ? `(${over(alias, where)})` : over(alias, where));
const filtered = (alias: string, t: ClaimTable) => (t.where === undefined ? '' : ` AND ${condition(alias, t.where)}`);

/** Source facts with no effect row. */
export function lostQuery(source: ClaimTable, effect: ClaimTable): string {
  return `SELECT DISTINCT ${cols('s', source)} FROM ${source.table} s WHERE NOT EXISTS (SELECT 1 FROM ${effect.table} e WHERE ${joined('e', effect, 's', source)}${filtered('e', effect)})${filtered('s', source)};`;
}

/** Effect keys recorded more than once. */
export function duplicateQuery(effect: ClaimTable): string {
  if (effect.where === undefined) {
    const k = columnsOf(effect).join(', ');
    return `SELECT ${k}, count(*) FROM ${effect.table} GROUP BY ${k} HAVING count(*) > 1;`;
  }
  const k = cols('e', effect);
  return `SELECT ${k}, count(*) FROM ${effect.table} e WHERE ${over('e', effect.where)} GROUP BY ${k} HAVING count(*) > 1;`;
}

/** Effect rows with no source fact behind them. */
export function phantomQuery(source: ClaimTable, effect: ClaimTable): string {
  return `SELECT DISTINCT ${cols('e', effect)} FROM ${effect.table} e WHERE NOT EXISTS (SELECT 1 FROM ${source.table} s WHERE ${joined('s', source, 'e', effect)}${filtered('s', source)})${filtered('e', effect)};`;
}

/** Keys whose history shows a version applied after a higher one. */
export function regressionQuery(h: VersionHistory): string {
  const k = cols('e', h);
  const named = columnsOf(h).map((c) => `h.${c}`).join(', ');
  const where = h.where === undefined ? '' : ` WHERE ${over('e', h.where)}`;
  return `SELECT DISTINCT ${named} FROM (SELECT ${k}, e.${h.version} AS applied, lag(e.${h.version}) OVER (PARTITION BY ${k} ORDER BY e.${h.order}) AS before FROM ${h.table} e${where}) h WHERE h.applied < h.before;`;
}

/** The rows of one or more tables that meet their conditions, every key entry selected (a union when several). */
export function rowsQuery(tables: readonly ClaimTable[]): string {
  const parts = tables.map((t) => `SELECT DISTINCT ${t.key.map((k) => ref('f', k)).join(', ')} FROM ${t.table} f${t.where === undefined ? '' : ` WHERE ${over('f', t.where)}`}`);
  return `${parts.join(' UNION ')};`;
}

/** Renders a key from its entries' values by the table's format: `{0}`, `{1}`…, or the values joined by `|`. */
export function formatKey(t: ClaimTable, values: readonly string[]): string {
  return t.format === undefined ? values.join('|') : t.format.replace(/\{(\d+)\}/g, (_, i: string) => values[Number(i)] ?? '');
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const unquote = (k: string) => k.replace(/^'(.*)'$/, '$1');

/** A key from a row that selected only the table's columns, its constants filled in from the declaration. */
function columnsKey(t: ClaimTable): (row: readonly unknown[]) => string {
  return (row) => {
    let i = 0;
    return formatKey(
      t,
      t.key.map((k) => (isConstant(k) ? unquote(k) : text(row[i++]))),
    );
  };
}

/** A key from a row that selected every key entry, constants included. */
function entriesKey(t: ClaimTable): (row: readonly unknown[]) => string {
  return (row) => formatKey(t, t.key.map((_, i) => text(row[i])));
}

/** Whether the claim has the clause that reports `violation` and the observer it needs. */
function reports(claim: Claim, violation: Violation): boolean {
  const g = claim.guarantee ?? 'exactlyOnceEffect';
  switch (violation) {
    case 'duplicate effect':
      return g !== 'atLeastOnce';
    case 'lost effect':
      return g !== 'atMostOnce' && claim.facts !== undefined;
    case 'phantom effect':
      return (claim.sources ?? claim.facts) !== undefined;
    case 'order regression':
      return claim.versions !== undefined;
    case 'replay mismatch':
      return claim.sameIntent !== undefined && claim.replies !== undefined;
    case 'conflict mishandled':
      return claim.differentIntent !== undefined && claim.conflicts !== undefined;
    case 'unresolved unknown outcome':
      return claim.unknownCompletion !== undefined && claim.unresolved !== undefined;
    case 'silent revision':
      return claim.finality !== undefined && claim.revisions !== undefined;
    case 'stuck':
      return false;
  }
}

/** The query for one violation from the claim's tables, or undefined when the tables it needs are not declared. */
function formFor(claim: Claim, violation: Violation): QueryForm | undefined {
  const t = claim.tables;
  if (t === undefined || !reports(claim, violation)) return undefined;
  const causes = t.causes ?? t.source;
  switch (violation) {
    case 'duplicate effect':
      return { violation, sql: duplicateQuery(t.effect), keyOf: columnsKey(t.effect) };
    case 'lost effect':
      return t.source && { violation, sql: lostQuery(t.source, t.effect), keyOf: columnsKey(t.source) };
    case 'phantom effect':
      return causes && { violation, sql: phantomQuery(causes, t.effect), keyOf: columnsKey(t.effect) };
    case 'order regression':
      return t.history && { violation, sql: regressionQuery(t.history), keyOf: columnsKey(t.history) };
    case 'replay mismatch':
      return t.replays && { violation, sql: rowsQuery([t.replays]), keyOf: entriesKey(t.replays) };
    case 'conflict mishandled':
      return t.conflicts && { violation, sql: rowsQuery([t.conflicts]), keyOf: entriesKey(t.conflicts) };
    case 'unresolved unknown outcome':
      return t.unresolved && t.unresolved.length > 0 ? { violation, sql: rowsQuery(t.unresolved), keyOf: entriesKey(t.unresolved[0]!) } : undefined;
    case 'silent revision':
      return t.revisions && { violation, sql: rowsQuery([t.revisions]), keyOf: entriesKey(t.revisions) };
    case 'stuck':
      return undefined;
  }
}

/** Every query the claim's tables give, one per violation its clauses can report. */
export function queryForms(claim: Claim): QueryForm[] {
  const out: QueryForm[] = [];
  for (const v of ['phantom effect', 'lost effect', 'duplicate effect', 'order regression', 'conflict mishandled', 'replay mismatch', 'unresolved unknown outcome', 'silent revision'] as const) {
    const f = formFor(claim, v);
    if (f !== undefined) out.push(f);
  }
  return out;
}

/** The tables a violation's query needs, in words, for a claim that does not declare them. */
const NEEDS: Readonly<Record<Exclude<Violation, 'stuck'>, string>> = {
  'duplicate effect': 'the effect table',
  'lost effect': 'the source table its facts are committed in',
  'phantom effect': 'the source table its facts are committed in',
  'order regression': "the effect's version history",
  'replay mismatch': 'the table of the results callers were given',
  'conflict mishandled': 'the table of the attempts under a key bound to another intent',
  'unresolved unknown outcome': 'the table that records outcomes still unknown',
  'silent revision': 'the table of the revisions made after a period was final',
};

/** Why no query finds a violation of this claim, in a sentence. */
function noQuery(effect: string, claim: Claim | undefined, violation: Violation): string {
  if (violation === 'stuck')
    return 'the run never went quiet: a process was still working or waiting when the run ended, which no table records; its state at the end, in the replay, is the evidence';
  if (claim?.tables === undefined) return `the claim on ${effect} declares no tables to query`;
  return `the claim on ${effect} does not declare ${NEEDS[violation]}`;
}

/**
 * The query for a row whose worst run ended with `outcome` and these findings. A held row gets
 * the check for what the window could do: a repeat when one was attempted there, else a loss.
 * A violated row gets the repair query of the first claim whose findings are of that kind and
 * whose tables give one, or the reason none does.
 */
export function repairQueryOf(claims: readonly Claim[], outcome: RunOutcome, findings: readonly Finding[], repeatSeen: boolean): RepairQuery | undefined {
  if (outcome === 'holds') {
    for (const claim of claims) {
      const kinds: Violation[] = repeatSeen ? ['duplicate effect', 'lost effect'] : ['lost effect', 'duplicate effect'];
      // What the claim accepts and declares (a lost page view, a repeated projection write) is no damage to look for.
      for (const k of kinds) {
        const form = formFor(claim, k);
        if (form !== undefined) return { role: 'check', sql: form.sql, keys: [] };
      }
    }
    return undefined;
  }
  // An undecided run names no damage: a checker could not judge it, and the row says why.
  if (outcome === 'unknown') return { role: 'none', why: "the run could not be judged (a checker failed; the row's undecided clauses give the reason), so it names no damage to find", keys: [] };
  // A run a bound cut names no damage either: what it did not finish is no finding.
  if (outcome === 'inconclusive') return { role: 'none', why: 'the run was cut by its step bound before it could end, so it names no damage to find', keys: [] };
  const about = findings.filter((f) => f.violation === outcome);
  const keysOf = (fs: readonly Finding[]) => [...new Set(fs.map((f) => ('key' in f ? f.key : '')).filter((k) => k !== ''))].sort();
  let first: RepairQuery | undefined;
  for (const claim of claims) {
    const mine = about.filter((f) => f.effect === claim.effect);
    if (mine.length === 0) continue;
    const form = formFor(claim, outcome);
    if (form !== undefined) return { role: 'repair', sql: form.sql, keys: keysOf(mine) };
    first ??= { role: 'none', why: noQuery(claim.effect, claim, outcome), keys: keysOf(mine) };
  }
  // Findings of a claim the list does not hold (a stuck run is reported once per claim) still get their reason.
  return first ?? { role: 'none', why: noQuery(about[0]?.effect ?? 'this effect', claims.find((c) => c.effect === about[0]?.effect), outcome), keys: keysOf(about) };
}
