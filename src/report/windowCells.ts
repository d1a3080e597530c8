// Renders one failure-window row as the plain-text cells a reviewer reads: the Markdown and the
// HTML tables both take their wording from here, so the two forms can never disagree on what a
// row says (an unreached window reads "not reached" in both, a missing guard reads "none").
import type { WindowRow, WindowsResult } from '../windows.ts';

export interface WindowCells {
  readonly window: string;
  readonly fault: string;
  readonly outcome: string;
  readonly evidence: string;
  readonly retryOwner: string;
  readonly duplicatePossible: string;
  readonly duplicateGuard: string;
  /** Empty when the design gives no query for this place; renderers show a dash then. */
  readonly repairQuery: string;
}

/** The column headings, in table order. */
export const WINDOW_COLUMNS: readonly { readonly key: keyof WindowCells; readonly title: string }[] = [
  { key: 'window', title: 'window' },
  { key: 'fault', title: 'fault' },
  { key: 'outcome', title: 'outcome' },
  { key: 'evidence', title: 'durable evidence' },
  { key: 'retryOwner', title: 'retry owner' },
  { key: 'duplicatePossible', title: 'duplicate possible' },
  { key: 'duplicateGuard', title: 'guard that suppresses it' },
  { key: 'repairQuery', title: 'repair query' },
];

/**
 * The outcome as a reader should see it. A fault that never struck proves nothing about its
 * window, so "holds" there would mislead; a violation is still shown, because the unfaulted run
 * itself failed.
 */
export function outcomeLabel(row: Pick<WindowRow, 'reached' | 'outcome'>): string {
  if (row.reached) return row.outcome;
  return row.outcome === 'holds' ? 'not reached' : `not reached (${row.outcome})`;
}

/** A scenario's rows as the tables every form shows, crashes first, each with its heading; empty tables are left out. */
export function windowTables(result: Pick<WindowsResult, 'windows'>): { readonly heading: string; readonly rows: readonly WindowRow[] }[] {
  const tables = [
    { heading: 'Crash at each failure window', rows: result.windows.filter((r) => r.fault === 'crash') },
    { heading: 'Message faults at each message point', rows: result.windows.filter((r) => r.fault !== 'crash') },
  ];
  return tables.filter((t) => t.rows.length > 0);
}

export function windowCells(row: WindowRow): WindowCells {
  return {
    window: row.window,
    fault: row.fault,
    outcome: outcomeLabel(row),
    evidence: row.evidence.trim() === '' ? 'nothing durable yet' : row.evidence,
    retryOwner: row.retryOwner,
    duplicatePossible: row.duplicatePossible ? 'yes' : 'no',
    duplicateGuard: row.duplicateGuard.length > 0 ? row.duplicateGuard.join(', ') : 'none',
    repairQuery: row.repairQuery.trim(),
  };
}
