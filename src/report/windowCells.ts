// Renders one failure-window row as the plain-text cells a reviewer reads: the Markdown, HTML
// and JUnit forms all take their wording from here, so they can never disagree on what a row
// says (a fault that never struck reads "not reached" in all of them, a missing guard "none").
// Every cell is read off the row's representative run: the evidence from its strike and end
// state, the retry owner from its trace, the guard from its notes (and whether a duplicate still
// happened from its findings), the query from the claim's tables and the finding. A design's
// declared note only adds wording to the retry owner, and only where it does not contradict the
// run (contradicts() states the rule).
import { guardsWords } from './guardWords.ts';
import { formatPlace, type Place } from '../faults/place.ts';
import type { RetryObservation } from '../analysis/retryObservation.ts';
import type { Evidence, WindowRow, WindowsResult } from '../modes/windows.ts';

export interface WindowCells {
  readonly window: string;
  readonly fault: string;
  readonly outcome: string;
  readonly evidence: string;
  readonly retryOwner: string;
  readonly duplicatePossible: string;
  readonly duplicateGuard: string;
  /** Empty only when the row held and its claims declare no tables; renderers show a dash then. A row no query serves says why in words. */
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
export function outcomeLabel(row: Pick<WindowRow, 'struck' | 'outcome'>): string {
  if (row.struck > 0) return row.outcome;
  return row.outcome === 'holds' ? 'not reached' : `not reached (${row.outcome})`;
}

/**
 * Durable state per component at the fault, what was in flight, then what the end state shows the
 * finding points at: `ordersDb {orders: o-1 ACCEPTED v1} · in flight: source->ordersDb:db.commit ·
 * at the end: o-1|1 committed in orders, missing from reservations`. Parts are joined, never
 * prefixed, so the cell never opens with a separator.
 */
export function evidenceText(e: Evidence | undefined): string {
  if (e === undefined) return 'not reached by this workload';
  const parts = e.components.map(({ component, parts }) => {
    const body = parts.map((p) => `${p.label}: ${p.items.join(', ')}`).join('; ');
    return `${component} {${body || 'empty'}}`;
  });
  if (parts.length === 0) parts.push('nothing durable yet');
  if (e.inFlight.length > 0) parts.push(`in flight: ${e.inFlight.map((m) => `${m.from}->${m.to}:${m.event.type}`).join(', ')}`);
  if (e.end.length > 0) parts.push(`at the end: ${e.end.join('; ')}`);
  return parts.filter((p) => p.trim() !== '').join(' · ');
}

/**
 * The component a declared retry owner names: the first design component (or "nobody") its
 * wording mentions as a word, where "itself" names the note's own component (`self`, the
 * component whose window it is); undefined when it names none.
 */
export function declaredOwner(wording: string, components: readonly string[], self?: string): string | undefined {
  const names = [...components, 'nobody', ...(self === undefined ? [] : ['itself'])];
  let best: { name: string; at: number } | undefined;
  for (const name of names) {
    const m = new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).exec(wording);
    if (m && (best === undefined || m.index < best.at)) best = { name, at: m.index };
  }
  return best?.name === 'itself' ? self : best?.name;
}

/** The component the run showed owning the retry, or "nobody"; undefined when the fault never struck. */
export function observedOwner(row: Pick<WindowRow, 'retry'>): string | undefined {
  const r = row.retry;
  if (r === undefined) return undefined;
  return r.kind === 'resent' ? r.component : 'nobody';
}

/**
 * Whether a design's declared retry owner contradicts what the row's run showed. Declared notes
 * may add wording but never contradict the run, and this is the rule that says when they do:
 * - a note that names no component only adds wording, and contradicts nothing;
 * - a note naming the component the run showed sending the work again (or asking after it)
 *   agrees;
 * - a note naming "nobody" says no component takes the work up: it agrees with a run in which
 *   nothing was sent again, whether the work was lost or nothing was lost;
 * - a note naming a component says who takes up the work a crash interrupts: it agrees with a
 *   run whose crash struck a component that held no work (idle, whether or not the run lost
 *   work elsewhere), and with a run that lost nothing and re-sent nothing (the work it cut short
 *   had been done already, as a duplicate it was skipping), since there was nothing to take up;
 *   but not with a run that lost work nobody re-sent;
 * - anything else contradicts it. A fault that never struck shows nothing to contradict.
 */
export function contradicts(row: Pick<WindowRow, 'retry' | 'note'> & { readonly place?: Place } & Partial<Pick<WindowRow, 'outcome' | 'outcomes'>>, components: readonly string[]): boolean {
  const r = row.retry;
  const wording = row.note?.retryOwner;
  if (r === undefined || wording === undefined) return false;
  // A note saying a guard suppresses the repeat is contradicted by a row whose run committed the repeat.
  if ((row.outcome === 'duplicate effect' || (row.outcomes?.['duplicate effect'] ?? 0) > 0) && SUPPRESSES.test(wording) && !DENIED.test(wording)) return true;
  const declared = declaredOwner(wording, components, row.place?.kind === 'window' ? row.place.component : undefined);
  if (declared === undefined || declared === observedOwner(row)) return false;
  return !(r.kind === 'none needed' || (r.kind === 'nobody' && r.idle === true));
}

/** Words by which a note says a guard stops a repeat from taking effect. */
const SUPPRESSES = /\b(suppress(es|ed)?|dedup(licates?|s)?|absorbs?|skips?|refuses?|ignores?)\b.*\b(repeat|duplicate|redelivery|again)|\b(repeat|duplicate|redelivery)\b.*\b(suppressed|absorbed|skipped|refused|ignored)\b/i;

/** Words by which a note says nothing stops the repeat ("nothing suppresses the repeat"): no claim of a guard. */
const DENIED = /\b(nothing|nobody|no one|not|never|no)\b[^.;:()]*\b(suppress|dedup|absorb|skip|refuse|ignore)/i;

/** Where a replay read its input again from, in words. */
const REPLAY_BASIS = { checkpoint: "its checkpoint's positions", snapshot: "its snapshot's positions", recorded: 'its recorded positions' } as const;

/** What the run showed about the retry, in words. */
export function observedRetryText(r: RetryObservation): string {
  if (r.kind === 'resent' && r.replay !== undefined) return `${r.component}: replayed ${r.replay.from} from ${REPLAY_BASIS[r.replay.basis]} (t=${r.replay.tick}) and sent ${r.message} to ${r.to} again (t=${r.tick})`;
  if (r.kind === 'resent') return r.lookup ? `${r.component}: asked ${r.to} after the work with ${r.message} (t=${r.tick})` : `${r.component}: sent ${r.message} to ${r.to} again (t=${r.tick})`;
  if (r.kind === 'nobody') return r.idle ? 'nobody: the crash interrupted no work, and the work lost elsewhere was never sent again' : 'nobody: the lost work was never sent again';
  return r.idle ? 'none needed: the crash interrupted no work' : 'none needed: nothing was lost';
}

/** The retry owner the run showed, with the design's wording unless that contradicts it (see contradicts). */
export function retryOwnerText(row: Pick<WindowRow, 'retry' | 'note'> & { readonly place?: Place } & Partial<Pick<WindowRow, 'outcome' | 'outcomes'>>, components: readonly string[] = []): string {
  const r = row.retry;
  if (r === undefined) return 'not reached';
  const seen = observedRetryText(r);
  const wording = row.note?.retryOwner;
  if (wording === undefined || contradicts(row, components)) return seen;
  return `${seen} · ${wording}`;
}

/**
 * The repair query, or for a row that held the check for the damage it could do; for damage no
 * query finds, the reason in words; empty only for a row that held under a claim with no tables.
 */
export function repairQueryText(row: Pick<WindowRow, 'repair'>): string {
  const q = row.repair;
  if (q === undefined) return '';
  const keys = q.keys.length > 0 ? ` -- finds ${q.keys.join(', ')}` : '';
  if (q.role === 'none') return `no query finds this in the data: ${q.why}${q.keys.length > 0 ? ` (keys ${q.keys.join(', ')})` : ''}`;
  return q.role === 'check' ? `check: ${q.sql}` : `${q.sql}${keys}`;
}

/** Whether the repair cell holds SQL (shown as code) rather than the reason there is none. */
export function repairIsSql(row: Pick<WindowRow, 'repair'>): boolean {
  return row.repair !== undefined && row.repair.role !== 'none';
}

/** A scenario's rows as the tables every form shows, crashes first, each with its heading; empty tables are left out. */
export function windowTables(result: Pick<WindowsResult, 'rows'>): { readonly heading: string; readonly rows: readonly WindowRow[] }[] {
  const tables = [
    { heading: 'Crash at each failure window', rows: result.rows.filter((r) => r.fault === 'crash') },
    { heading: 'Message faults at each message point', rows: result.rows.filter((r) => r.place.kind === 'point') },
    { heading: 'Restore from a snapshot, and clock skew, at each failure window', rows: result.rows.filter((r) => r.fault === 'restore' || r.fault === 'skew') },
  ];
  return tables.filter((t) => t.rows.length > 0);
}

/** The design's component names a result shows: the owners of its failure windows and the ends of its message points. */
export function componentNames(result: Pick<WindowsResult, 'failureWindows' | 'rows'>): readonly string[] {
  // Every row of every form asks; worked out once per result, it is not a pass over all rows per row.
  const known = namesOf.get(result);
  if (known !== undefined) return known;
  const names = new Set(result.failureWindows.map((w) => w.slice(0, w.indexOf('.'))));
  for (const r of result.rows) if (r.place.kind === 'point') for (const n of [r.place.from, r.place.to]) names.add(n);
  const sorted = [...names].sort();
  namesOf.set(result, sorted);
  return sorted;
}

/** The component names of each result a report has asked about; a result's rows do not change. */
const namesOf = new WeakMap<object, readonly string[]>();

/** A row's fault in a few words: its kind, and for a restore the component it restored. */
export function rowFaultLabel(row: Pick<WindowRow, 'fault' | 'restored'>): string {
  return row.restored === undefined ? row.fault : `restore ${row.restored}`;
}

/**
 * The guards the fault called on in the row's run, in words (`the inbox key`). A guard that
 * fired in a run that still committed a duplicate did not suppress it, and the cell says so
 * rather than naming it as the guard that suppresses the repeat: `the sink’s committed epoch
 * caught a repeat, and the duplicate still happened`.
 */
export function duplicateGuardText(row: Pick<WindowRow, 'guards' | 'duplicated'>): string {
  if (row.guards.length === 0) return 'none';
  const words = guardsWords(row.guards);
  return row.duplicated ? `${words} caught a repeat, and the duplicate still happened` : words;
}

/** A row's cells; `components` are the design's component names, so a declared owner is recognised. */
export function windowCells(row: WindowRow, components: readonly string[] = []): WindowCells {
  return {
    window: formatPlace(row.place),
    fault: rowFaultLabel(row),
    outcome: outcomeLabel(row),
    evidence: evidenceText(row.evidence),
    retryOwner: retryOwnerText(row, components),
    duplicatePossible: row.repeatSeen ? 'yes' : 'no',
    duplicateGuard: duplicateGuardText(row),
    repairQuery: repairQueryText(row),
  };
}
