// The query that finds in production the damage a window's finding points at, written from the
// claim's declared tables and the finding's kind, never typed per window: a lost effect is a
// source fact with no effect row (an anti-join), a duplicate is an effect key counted twice, a
// phantom is an effect row with no source fact (the reverse anti-join). A window where every run
// held gets the query that would catch the damage it could cause, labelled a check.
import type { Finding, RunOutcome } from './checkers/finding.ts';
import type { Claim, ClaimTable } from './claims.ts';

/** A query for one window row: what it looks for and the SQL, or why there is none. */
export interface RepairQuery {
  /** `repair` when the row's worst run found this damage; `check` when the row held. */
  readonly role: 'repair' | 'check';
  readonly sql: string;
  /** The keys the finding named, so a reader can look for exactly them. */
  readonly keys: readonly string[];
}

// A key entry that is a number or a quoted string is a constant the table implies (every order's
// reservation is version 1), not a column.
const isConstant = (k: string) => /^[0-9']/.test(k);
const ref = (alias: string, k: string) => (isConstant(k) ? k : `${alias}.${k}`);
const cols = (alias: string, t: ClaimTable) => t.key.filter((k) => !isConstant(k)).map((k) => `${alias}.${k}`).join(', ');
const joined = (a: string, at: ClaimTable, b: string, bt: ClaimTable) => at.key.map((k, i) => `${ref(a, k)} = ${ref(b, bt.key[i]!)}`).join(' AND ');
// A table's `where` names its columns `$column`, so the condition reads against either alias.
const filtered = (alias: string, t: ClaimTable) => (t.where === undefined ? '' : ` AND ${t.where.replace(/\$/g, `${alias}.`)}`);

/** Source facts with no effect row. */
export function lostQuery(source: ClaimTable, effect: ClaimTable): string {
  return `SELECT ${cols('s', source)} FROM ${source.table} s WHERE NOT EXISTS (SELECT 1 FROM ${effect.table} e WHERE ${joined('e', effect, 's', source)})${filtered('s', source)};`;
}

/** Effect keys recorded more than once. */
export function duplicateQuery(effect: ClaimTable): string {
  const k = effect.key.join(', ');
  return `SELECT ${k}, count(*) FROM ${effect.table} GROUP BY ${k} HAVING count(*) > 1;`;
}

/** Effect rows with no source fact behind them. */
export function phantomQuery(source: ClaimTable, effect: ClaimTable): string {
  return `SELECT ${cols('e', effect)} FROM ${effect.table} e WHERE NOT EXISTS (SELECT 1 FROM ${source.table} s WHERE ${joined('s', source, 'e', effect)}${filtered('s', source)});`;
}

function queryFor(claim: Claim, violation: RunOutcome): string | undefined {
  const t = claim.tables;
  if (t === undefined) return undefined;
  if (violation === 'duplicate effect') return duplicateQuery(t.effect);
  if (violation === 'lost effect') return t.source && lostQuery(t.source, t.effect);
  if (violation === 'phantom effect') return t.source && phantomQuery(t.source, t.effect);
  return undefined;
}

/**
 * The query for a row whose worst run ended with `outcome` and these findings. A held row gets
 * the check for what the window could do: a repeat when one was attempted there, else a loss.
 */
export function repairQueryOf(claims: readonly Claim[], outcome: RunOutcome, findings: readonly Finding[], repeatSeen: boolean): RepairQuery | undefined {
  if (outcome === 'holds') {
    for (const claim of claims) {
      const kinds: RunOutcome[] = repeatSeen ? ['duplicate effect', 'lost effect'] : ['lost effect', 'duplicate effect'];
      // What the claim accepts and declares (a lost page view, a repeated projection write) is no damage to look for.
      const accepted: RunOutcome | undefined = claim.guarantee === 'atMostOnce' ? 'lost effect' : claim.guarantee === 'atLeastOnce' ? 'duplicate effect' : undefined;
      for (const k of kinds.filter((x) => x !== accepted)) {
        const sql = queryFor(claim, k);
        if (sql !== undefined) return { role: 'check', sql, keys: [] };
      }
    }
    return undefined;
  }
  const about = findings.filter((f) => f.violation === outcome);
  for (const claim of claims) {
    const mine = about.filter((f) => f.effect === claim.effect);
    if (mine.length === 0) continue;
    const sql = queryFor(claim, outcome);
    if (sql !== undefined) return { role: 'repair', sql, keys: [...new Set(mine.map((f) => ('key' in f ? f.key : '')).filter((k) => k !== ''))].sort() };
  }
  return undefined;
}
