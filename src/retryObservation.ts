// Who re-sent the work a fault interrupted, as a run's trace shows it. A design review asks of
// every failure window "who owns the retry from here"; a declared answer can be wrong for the
// options a scenario picks, so the report shows what the run itself did: the first component
// that, after the fault, sent again a message carrying the same work as one the fault lost, held,
// dropped or cut short. When nothing was re-sent and the run lost an effect, nobody owned it.
import type { Finding } from './checkers/finding.ts';
import type { Fault } from './faults.ts';
import { stableJson, type TraceEvent } from './trace.ts';

/** What the run shows about the retry from a fault. */
export type RetryObservation =
  /** `component` sent `message` (to `to`) again; the re-sent message arrived (or was dropped) at `tick`. */
  | { readonly kind: 'resent'; readonly component: string; readonly message: string; readonly to: string; readonly tick: number }
  /** Nothing was re-sent and an effect was lost: the work died with the fault. */
  | { readonly kind: 'nobody' }
  /** Nothing was re-sent and nothing was lost: no retry was needed. */
  | { readonly kind: 'none needed' };

/**
 * Fields that differ between two sends of the same work (a request reference, a transaction id,
 * an offset, a bare acknowledgement), so two messages are the same work when everything else is.
 */
const VOLATILE = new Set(['ref', 'tx', 'stmt', 'at', 'attempt', 'ok', 'offset', 'partition', 'peer', 'from']);

interface Sent {
  readonly seq: number;
  readonly tick: number;
  readonly from: string;
  readonly to: string;
  readonly type: string;
  /** The message without its volatile fields; undefined when nothing but its type is left. */
  readonly work: string | undefined;
}

/** The work a message carries: its fields but the volatile ones; a bare acknowledgement carries none. */
export function workOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(event as Record<string, unknown>)) {
    if (k === 'type' || VOLATILE.has(k)) continue;
    rest[k] = v;
    any = true;
  }
  return any ? `${String((event as { type?: unknown }).type)}|${stableJson(rest)}` : undefined;
}

/** Every message the trace shows leaving a sender: delivered, dropped at a crashed receiver, or struck by a fault. */
function sendsOf(trace: readonly TraceEvent[]): Sent[] {
  const out: Sent[] = [];
  for (const e of trace) {
    const d = e.data as { from?: string; to?: string; event?: { type?: string } } | undefined;
    if (d?.event === undefined) continue;
    const type = String(d.event.type);
    if (type.startsWith('sys.')) continue;
    if (e.kind === 'deliver' || e.kind === 'drop') out.push({ seq: e.seq, tick: e.tick, from: d.from!, to: e.component, type, work: workOf(d.event) });
    else if (e.kind === 'lose') out.push({ seq: e.seq, tick: e.tick, from: e.component, to: d.to!, type, work: workOf(d.event) });
  }
  return out;
}

/**
 * The retry a run shows after its single fault. `interrupted` is the work a crashed component
 * would have sent next, as the fault-free run shows (see nextSendOf). `actors` names the
 * components that act on their own (all but the stores that only answer): the work a crashed
 * component was doing is the last message it received from one of them (a database reply says
 * nothing about which work it was), and only an actor re-sends.
 */
export function observeRetry(trace: readonly TraceEvent[], fault: Fault, findings: readonly Finding[], actors: ReadonlySet<string>, interrupted?: string): RetryObservation {
  const struckAs = stableJson(fault);
  const at = trace.findIndex((e) => e.kind === 'fault' && stableJson(e.data) === struckAs);
  const lost = findings.some((f) => f.violation === 'lost effect');
  const none: RetryObservation = lost ? { kind: 'nobody' } : { kind: 'none needed' };
  if (at < 0) return none;
  const faultSeq = trace[at]!.seq;
  const sends = sendsOf(trace);
  const before = sends.filter((s) => s.seq < faultSeq);
  const after = sends.filter((s) => s.seq > faultSeq);
  const work = new Set<string>();
  // The sends the work was read from are the interrupted work, not its retry.
  const sources = new Set<number>();
  // Deliveries of the struck message itself that the fault lets through (a delayed or reordered
  // message arrives once, a duplicated one twice) are the network's doing, not a retry.
  let passThrough = 0;
  if (fault.kind === 'crash') {
    const crashed = fault.window.slice(0, fault.window.indexOf('.'));
    const received = before.filter((s) => s.to === crashed && actors.has(s.from) && s.work !== undefined).at(-1);
    if (received?.work !== undefined) work.add(received.work);
    // A bare acknowledgement as the last thing it heard means an exchange it had started was
    // answered and not yet finished: what it had sent that peer is the work too.
    const heard = before.filter((s) => s.to === crashed && actors.has(s.from)).at(-1);
    const said = before.filter((s) => s.from === crashed && s.to === heard?.from && s.work !== undefined).at(-1);
    if (heard !== undefined && heard.work === undefined && said?.work !== undefined) work.add(said.work);
    if (interrupted !== undefined) work.add(interrupted);
    // What was on its way to or from it, and what arrived while it was down.
    const restart = trace.findIndex((e, i) => i > at && e.kind === 'restart' && e.component === crashed);
    const downUntil = restart < 0 ? Number.POSITIVE_INFINITY : trace[restart]!.seq;
    for (const s of after) {
      if (s.seq >= downUntil || s.work === undefined) continue;
      // Anything it sent that arrives while it is down left before the crash; the first arrival
      // of each work meant for it is what the crash cut short, and a later one is a re-send.
      if (s.from === crashed || (s.to === crashed && !work.has(s.work))) sources.add(s.seq);
      if (s.from === crashed || s.to === crashed) work.add(s.work);
    }
  } else {
    const struck = [...trace.slice(0, at)].reverse().find((e) => e.kind === fault.kind) ?? trace.slice(at + 1).find((e) => e.kind === fault.kind);
    const w = workOf((struck?.data as { event?: unknown } | undefined)?.event);
    if (w !== undefined) work.add(w);
    passThrough = fault.kind === 'lose' ? 0 : fault.kind === 'duplicate' ? 2 : 1;
  }
  for (const s of after) {
    // A database only answers; the retry is owned by whoever asks again.
    if (s.work === undefined || !work.has(s.work) || sources.has(s.seq) || !actors.has(s.from)) continue;
    if (passThrough > 0) {
      passThrough--;
      continue;
    }
    return { kind: 'resent', component: s.from, message: s.type, to: s.to, tick: s.tick };
  }
  return none;
}

/**
 * The work a component sends next to an actor after entering a window for the n-th time in a
 * fault-free trace, within the step that leaves the window and the one after (a send arrives
 * after the step that made it): what a crash there cuts short before it ever leaves. A database
 * statement is the means, not the work, so only a send to an actor counts.
 */
export function nextSendOf(trace: readonly TraceEvent[], window: string, occurrence: number, actors: ReadonlySet<string>): string | undefined {
  const dot = window.indexOf('.');
  const component = window.slice(0, dot);
  const state = window.slice(dot + 1);
  let seen = 0;
  const entered = trace.findIndex((e) => e.kind === 'state' && e.component === component && e.data === state && ++seen === occurrence);
  if (entered < 0) return undefined;
  let steps = 0;
  let until = trace.length;
  for (let i = entered + 1; i < trace.length; i++) {
    if (trace[i]!.kind === 'state' && trace[i]!.component === component && ++steps === 2) {
      until = i;
      break;
    }
  }
  return sendsOf(trace.slice(entered + 1, until)).find((s) => s.from === component && actors.has(s.to) && s.work !== undefined)?.work;
}
