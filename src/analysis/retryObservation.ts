// Who re-sent the work a fault interrupted, as a run's trace shows it. A design review asks of
// every failure window "who owns the retry from here"; a declared answer can be wrong for the
// options a scenario picks, so the report shows what the run itself did: the first component
// that, after the fault, sent again a message carrying the same work as one the fault lost, held,
// dropped or cut short; failing that, a restarted component that replayed its input from recorded
// positions (a stream operator from its checkpoint) and made again what that input had made. When
// nothing was re-sent and the run lost an effect, nobody owned it.
import type { Finding } from '../checkers/finding.ts';
import { faultPlace, faultPlaceName, restoredComponent, type Fault } from '../faults/faults.ts';
import { stableJson, type TraceEvent } from '../kernel/trace.ts';

/** What the run shows about the retry from a fault. */
export type RetryObservation =
  /**
   * `component` sent `message` (to `to`) again; the re-sent message arrived (or was dropped) at
   * `tick`. `lookup`: it asked after the work rather than sending it. `replay`: it re-did the work
   * by reading its input again from where it had recorded it (see Replay).
   */
  | { readonly kind: 'resent'; readonly component: string; readonly message: string; readonly to: string; readonly tick: number; readonly lookup?: true; readonly replay?: Replay }
  /**
   * Nothing was re-sent and an effect was lost: the work died with the fault. `idle`: the crash
   * struck a component that held no work, so what was lost was lost elsewhere, not cut short here.
   */
  | { readonly kind: 'nobody'; readonly idle?: true }
  /**
   * Nothing was re-sent and nothing was lost: no retry was needed. `idle`: the crash struck a
   * component that held no work at all, so there was nothing it could have cut short.
   */
  | { readonly kind: 'none needed'; readonly idle?: true };

/**
 * A component that, after its restart, read again from `from` input it had read before the fault,
 * arriving at `tick`, from the positions `basis` names: the checkpoint it had noted (a stream
 * operator's), the snapshot a restore set it back to, or else only what it had recorded.
 */
export interface Replay {
  readonly from: string;
  readonly tick: number;
  readonly basis: 'checkpoint' | 'snapshot' | 'recorded';
}

/**
 * Fields that differ between two sends of the same work (a request reference, a transaction id,
 * an offset, a group's generation, a bare acknowledgement), so two messages are the same work
 * when everything else is.
 */
const VOLATILE = new Set(['ref', 'tx', 'stmt', 'at', 'attempt', 'ok', 'offset', 'partition', 'generation', 'peer', 'from']);

/**
 * One message the trace shows leaving its sender. Its fields and its work are made on first read:
 * a row reads the work of the few messages near its fault, and a stable JSON of every message of
 * a long trace would cost more than the rest of the observation.
 */
class Sent {
  private fieldsMade: Readonly<Record<string, unknown>> | undefined;
  private workMade: string | null | undefined;

  constructor(
    readonly seq: number,
    readonly tick: number,
    readonly from: string,
    readonly to: string,
    readonly type: string,
    /** The request reference it carries: a reply carries its request's. */
    readonly ref: string | undefined,
    /** The message as it was sent. */
    readonly event: unknown,
  ) {}

  /** Its fields but the volatile ones. */
  get fields(): Readonly<Record<string, unknown>> {
    return (this.fieldsMade ??= fieldsOf(this.event));
  }

  /** Whether it carries work: whether `work` is defined, without making it. */
  get carriesWork(): boolean {
    if (this.workMade !== undefined) return this.workMade !== null;
    for (const _ in this.fields) return true;
    return false;
  }

  /** The message without its volatile fields; undefined when nothing but its type is left. */
  get work(): string | undefined {
    if (this.workMade === undefined) this.workMade = workOfFields(this.type, this.fields) ?? null;
    return this.workMade ?? undefined;
  }
}

/** A message's fields but its type and the volatile ones. */
function fieldsOf(event: unknown): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  if (typeof event !== 'object' || event === null) return rest;
  // A field that repeats the message's own reference (a fresh idempotency key is the attempt's
  // reference) changes with every attempt as the reference does, so it is as volatile.
  const ref = (event as { ref?: unknown }).ref;
  for (const [k, v] of Object.entries(event as Record<string, unknown>)) {
    if (k === 'type' || VOLATILE.has(k) || (typeof ref === 'string' && v === ref)) continue;
    rest[k] = v;
  }
  return rest;
}

/** The work a message carries: its fields but the volatile ones; a bare acknowledgement carries none. */
export function workOf(event: unknown): string | undefined {
  return workOfFields(String((event as { type?: unknown } | null)?.type), fieldsOf(event));
}

function workOfFields(type: string, fields: Readonly<Record<string, unknown>>): string | undefined {
  return Object.keys(fields).length > 0 ? `${type}|${stableJson(fields)}` : undefined;
}

/**
 * Whether `s` asks after the work `w` carried rather than sending it again: another message to
 * the same receiver that carries nothing but part of the work's own fields, as a status lookup
 * carries only the idempotency key of the call it asks about. Taking up interrupted work that
 * way is owning its retry as much as sending it again.
 */
function asksAfter(s: Sent, w: Sent): boolean {
  if (s.to !== w.to || s.type === w.type) return false;
  const asked = Object.entries(s.fields);
  return asked.length > 0 && asked.every(([k, v]) => k in w.fields && stableJson(w.fields[k]) === stableJson(v));
}

/**
 * A request reference with an attempt marker names the request before the `#` and the attempt
 * after it: `accept o-1#2` is the second try of the command `accept o-1`.
 */
function requestOf(ref: string | undefined): string | undefined {
  const hash = ref?.indexOf('#') ?? -1;
  return hash < 0 ? undefined : ref!.slice(0, hash);
}

/**
 * A send's work together with the request it belongs to. Two replies to different commands can
 * carry the same outcome (`o-1` accepted, then `o-1` accepted again), so the work a crash cut
 * short before it left, known exactly from the fault-free run, is matched with its request: a
 * reply to the next command is not its re-send, while a reply to the retried command is.
 */
function requestWorkOf(s: Pick<Sent, 'work' | 'ref'>): string | undefined {
  const request = requestOf(s.ref);
  return s.work === undefined || request === undefined ? s.work : `${s.work}#${request}`;
}

/**
 * Whether `s` carries nothing but what the last request it answers carried: every field of it is
 * a field of the last message its receiver sent its sender before it, with the same value.
 */
function echoesRequest(s: Sent, sends: SendIndex): boolean {
  const fields = Object.entries(s.fields);
  if (fields.length === 0) return false;
  const request = sends.lastBefore(s.to, s.from, s.seq);
  return request !== undefined && fields.every(([k, v]) => k in request.fields && stableJson(request.fields[k]) === stableJson(v));
}

/**
 * The request a reply answers: the last message its receiver sent its sender before `seq` with
 * the same reference. Undefined when it carries none or answers nothing the trace shows.
 */
function requestAnswered(ref: string | undefined, from: string, to: string, seq: number, sends: SendIndex): Sent | undefined {
  if (ref === undefined) return undefined;
  return sends.lastBefore(to, from, seq, (t) => t.ref === ref);
}

/**
 * A trace's sends by sender and receiver, each list in trace order. The observation asks, for
 * many messages, after the last message some link carried before it; searched in the whole list
 * every time, that made a row's observation quadratic in its trace.
 */
class SendIndex {
  /** By sender, then receiver; made on the first look-up, which many observations never make. */
  private byLink: Map<string, Map<string, Sent[]>> | undefined;

  constructor(readonly all: readonly Sent[]) {}

  /** The last message from `from` to `to` before `seq` that `pass` accepts (every one, without it). */
  lastBefore(from: string, to: string, seq: number, pass?: (s: Sent) => boolean): Sent | undefined {
    const list = this.links().get(from)?.get(to);
    if (list === undefined) return undefined;
    for (let i = firstAtOrAfter(list, seq) - 1; i >= 0; i--) if (pass === undefined || pass(list[i]!)) return list[i];
    return undefined;
  }

  private links(): Map<string, Map<string, Sent[]>> {
    if (this.byLink !== undefined) return this.byLink;
    const byLink = new Map<string, Map<string, Sent[]>>();
    for (const s of this.all) {
      let byTo = byLink.get(s.from);
      if (byTo === undefined) byLink.set(s.from, (byTo = new Map()));
      const list = byTo.get(s.to);
      if (list === undefined) byTo.set(s.to, [s]);
      else list.push(s);
    }
    return (this.byLink = byLink);
  }
}

/**
 * The work in hand, by sender: two components can send messages of the same content (two
 * participants' replies naming the same operation id), and only the one that sent it sends it
 * again.
 */
class WorkBySender {
  private readonly bySender = new Map<string, Set<string>>();
  size = 0;

  add(sender: string, work: string): void {
    let set = this.bySender.get(sender);
    if (set === undefined) this.bySender.set(sender, (set = new Set()));
    if (!set.has(work)) this.size++;
    set.add(work);
  }

  /** Whether `s` carries work its sender was handed; its work is made only for a sender that was handed some. */
  has(s: Sent): boolean {
    return this.bySender.get(s.from)?.has(s.work!) ?? false;
  }
}

/** The index of the first send in `list` (in trace order) at or after `seq`. */
function firstAtOrAfter(list: readonly Sent[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every message the trace shows leaving a sender: delivered, dropped at a crashed receiver, or struck by a fault. */
function sendsOf(trace: readonly TraceEvent[]): Sent[] {
  const out: Sent[] = [];
  for (const e of trace) {
    const d = e.data as { from?: string; to?: string; event?: { type?: string } } | undefined;
    if (d?.event === undefined) continue;
    const type = String(d.event.type);
    if (type.startsWith('sys.')) continue;
    const r = (d.event as { ref?: unknown }).ref;
    const ref = typeof r === 'string' ? r : undefined;
    if (e.kind !== 'deliver' && e.kind !== 'drop' && e.kind !== 'lose') continue;
    const [from, to] = e.kind === 'lose' ? [e.component, d.to!] : [d.from!, e.component];
    out.push(new Sent(e.seq, e.tick, from, to, type, ref, d.event));
  }
  return out;
}

/** Whether a value holds anything: an empty list, an empty object or a list of such holds nothing. */
function holdsSomething(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (Array.isArray(v)) return v.some(holdsSomething);
  if (typeof v === 'object') return Object.values(v).some(holdsSomething);
  return true;
}

/**
 * The items a message carries: each element of a list field (a record, a row) on its own, so two
 * answers that share records are recognised though one holds more (the log grew meanwhile).
 */
function itemsOf(s: Sent): string[] {
  return Object.entries(s.fields).flatMap(([k, v]) => (Array.isArray(v) ? v.filter(holdsSomething).map((x) => `${k}|${stableJson(x)}`) : []));
}

/** Whether `r` gives again input `p` gave: the same work, or some of the same items. */
function readsAgain(r: Sent, p: Sent): boolean {
  if (p.from !== r.from || p.type !== r.type) return false;
  if (p.work === r.work) return true;
  const items = new Set(itemsOf(p));
  return itemsOf(r).some((x) => items.has(x));
}

/**
 * A replay from recorded positions, after `component` restarted at `restartSeq`. A stream
 * operator restoring a checkpoint reads its log again from the checkpoint's positions and makes
 * again the posts it made since: those carry a new processing time or epoch, so they are not the
 * same work as the ones the fault cut short, yet the operator re-did that work. The trace shows
 * it as input read again: after the restart, the component asks a sender for input by position
 * alone (a request that carries no work: a fetch naming an offset, or a poll naming nothing), and
 * gets input it had got from that sender before the fault, all of it or some of its records (an
 * answer with nothing in it, an empty poll, reads nothing); then it sends a message of a kind
 * (type and receiver) it had sent after that first read and before its restart. A component that
 * asked for its input by content (a query, a subscription) re-read nothing from a position.
 * Undefined when the trace shows no replay.
 */
function replayOf(trace: readonly TraceEvent[], sends: SendIndex, fault: Fault, component: string, faultSeq: number, restartSeq: number): RetryObservation | undefined {
  const kindOf = (s: Sent) => `${s.type}\u0000${s.to}`;
  // What the component sent carrying work, in trace order: what it made, and what it made again.
  // Made on first need, since a message's work is a stable JSON made on first read.
  let works: Sent[] | undefined;
  for (const r of sends.all) {
    if (r.seq <= restartSeq || r.to !== component || r.work === undefined || !holdsSomething(r.fields)) continue;
    const request = sends.lastBefore(component, r.from, r.seq);
    if (request === undefined || request.seq <= restartSeq || request.work !== undefined) continue;
    // readsAgain asks for the same sender, so the input read before the fault came on r's link.
    const first = sends.lastBefore(r.from, component, faultSeq, (p) => readsAgain(r, p));
    if (first === undefined) continue;
    works ??= sends.all.filter((s) => s.from === component && s.work !== undefined);
    const made = new Set(works.slice(firstAtOrAfter(works, first.seq + 1), firstAtOrAfter(works, restartSeq)).map(kindOf));
    const again = works.slice(firstAtOrAfter(works, r.seq + 1)).find((s) => made.has(kindOf(s)));
    if (again === undefined) continue;
    const checkpointed = trace.some((e) => e.seq < faultSeq && e.kind === 'note' && e.component === component && (e.data as { kind?: unknown } | undefined)?.kind === 'checkpoint');
    const basis = fault.kind === 'restore' ? 'snapshot' : checkpointed ? 'checkpoint' : 'recorded';
    return { kind: 'resent', component, message: again.type, to: again.to, tick: again.tick, replay: { from: r.from, tick: r.tick, basis } };
  }
  return undefined;
}

/** What a message fault struck, as the observation reads it. */
interface MessageFault {
  /** The struck message's work, with its sender. */
  readonly work?: { readonly sender: string; readonly work: string };
  /** Where the trace shows the struck message. */
  readonly struck?: number;
  readonly answers: Sent | undefined;
  readonly unconfirmed: Unconfirmed | undefined;
  /** How many deliveries of the struck message the fault lets through: the network's doing, not a retry. */
  readonly passThrough: number;
}

/**
 * The struck message of a message fault and the work it held. A reply answers one request: the
 * same outcome sent later in answer to another request (the next command's reply, accepted like
 * the lost one) is that request's answer, not a re-send, while a re-send answers a request
 * carrying the same work (the same command sent again), so `answers` is the request it answered.
 * The struck message itself is the work, never its re-send (a check's path traces a lost message
 * just after the fault that struck it). A delayed or reordered message arrives once, a duplicated
 * one twice.
 */
function messageFaultOf(trace: readonly TraceEvent[], at: number, fault: Fault, sends: SendIndex, actors: ReadonlySet<string>): MessageFault {
  const struck = [...trace.slice(0, at)].reverse().find((e) => e.kind === fault.kind) ?? trace.slice(at + 1).find((e) => e.kind === fault.kind);
  const passThrough = fault.kind === 'lose' ? 0 : fault.kind === 'duplicate' ? 2 : 1;
  if (struck === undefined) return { answers: undefined, unconfirmed: undefined, passThrough };
  const event = (struck.data as { event?: unknown } | undefined)?.event;
  const w = workOf(event);
  const r = (event as { ref?: unknown } | undefined)?.ref;
  const point = faultPlace(fault);
  return {
    ...(w === undefined ? {} : { work: { sender: struck.component, work: w } }),
    struck: struck.seq,
    answers: typeof r === 'string' && point?.kind === 'point' ? requestAnswered(r, point.from, point.to, struck.seq, sends) : undefined,
    unconfirmed: unconfirmedOf(trace, struck, fault, sends, actors),
    passThrough,
  };
}

/** The work of the exchange a struck message belonged to, and until when each of its senders was left unconfirmed. */
interface Unconfirmed {
  readonly work: WorkBySender;
  /** The trace index at which a sender of the work learned it was served (infinity: it never did). */
  readonly until: (sender: string) => number;
}

/** The conversation references of a message: the request reference and the transaction it belongs to. */
function exchangeOf(event: unknown): { readonly ref?: unknown; readonly tx?: unknown } {
  return typeof event === 'object' && event !== null ? (event as { ref?: unknown; tx?: unknown }) : {};
}

/**
 * A message the fault lost, held back or delayed may be one that confirms work rather than one
 * that carries it: a broker's acknowledgement of a publish, a database's reply, the commit of a
 * transaction, a consumer's offset commit. Until it arrives, the work it confirms is unconfirmed,
 * and whoever sent that work sending it again is the repair (the publisher publishing again, the
 * consumer running its transaction again, the broker delivering again). The work is that of the
 * message's exchange: what an actor sent between the same two components before it under its
 * request reference (`ref`) or in its transaction (`tx`); for a message with neither that carries
 * no work (an offset commit), the last work its receiver had sent its sender, which it confirms.
 * A re-send counts while its sender does not know the work was served: a sender of a request,
 * until the struck reply arrives, or after a struck request, until the answer to it does; a lost
 * message leaves the work unconfirmed for good. A duplicated message arrives, so it leaves
 * nothing unconfirmed. Undefined when the exchange holds no actor's work.
 */
function unconfirmedOf(trace: readonly TraceEvent[], struck: TraceEvent, fault: Fault, sends: SendIndex, actors: ReadonlySet<string>): Unconfirmed | undefined {
  if (fault.kind !== 'lose' && fault.kind !== 'delay' && fault.kind !== 'reorder') return undefined;
  const d = struck.data as { to?: string; event?: unknown } | undefined;
  const [a, b] = [struck.component, d?.to];
  if (b === undefined) return undefined;
  const { ref, tx } = exchangeOf(d?.event);
  const inExchange = (event: unknown) => {
    const x = exchangeOf(event);
    return (ref !== undefined && x.ref === ref) || (tx !== undefined && x.tx === tx);
  };
  const work = new WorkBySender();
  const add = (s: Sent) => {
    if (actors.has(s.from) && s.work !== undefined) work.add(s.from, s.work);
  };
  const between = (s: Sent) => (s.from === a && s.to === b) || (s.from === b && s.to === a);
  if (ref !== undefined || tx !== undefined) for (const s of sends.all) if (s.seq < struck.seq && between(s) && inExchange(s.event)) add(s);
  const confirmed = ref === undefined && tx === undefined && workOf(d?.event) === undefined ? sends.lastBefore(b, a, struck.seq, (s) => s.work !== undefined) : undefined;
  if (confirmed !== undefined) add(confirmed);
  if (work.size === 0) return undefined;
  if (fault.kind === 'lose') return { work, until: () => Number.POSITIVE_INFINITY };
  const delivered = (from: string, to: string, after: number, pass: (event: unknown) => boolean) => trace.find((e) => e.seq > after && e.kind === 'deliver' && e.component === to && (e.data as { from?: string }).from === from && pass((e.data as { event?: unknown }).event));
  const sent = stableJson(d?.event);
  const arrived = delivered(a, b, struck.seq, (event) => stableJson(event) === sent);
  const answered = arrived === undefined ? undefined : delivered(b, a, arrived.seq, inExchange);
  return { work, until: (sender) => (sender === b ? arrived : answered)?.seq ?? Number.POSITIVE_INFINITY };
}

/**
 * Whether a trace's fault event is the strike of `fault`: the same kind at the same place, and the
 * same occurrence where the event names one (a check's path traces its fault without it, since a
 * path has one strike of each fault it takes).
 */
function isStrikeOf(data: unknown, fault: Fault): boolean {
  const d = data as Partial<Fault> | undefined;
  if (d?.kind !== fault.kind || faultPlaceName(d as Fault) !== faultPlaceName(fault) || restoredComponent(d as Fault) !== restoredComponent(fault)) return false;
  return d.occurrence === undefined || d.occurrence === fault.occurrence;
}

/**
 * The retry a run shows after its single fault. `interrupted` is the work a crashed component
 * would have sent next, as the fault-free run shows (see nextSendOf). `actors` names the
 * components that act on their own (all but the stores that only answer): the work a crashed
 * component was doing is the last message it received from one of them (a database reply says
 * nothing about which work it was), and only an actor re-sends.
 */
export function observeRetry(trace: readonly TraceEvent[], fault: Fault, findings: readonly Finding[], actors: ReadonlySet<string>, interrupted?: string): RetryObservation {
  const at = trace.findIndex((e) => e.kind === 'fault' && isStrikeOf(e.data, fault));
  const lost = findings.some((f) => f.violation === 'lost effect');
  const none: RetryObservation = lost ? { kind: 'nobody' } : { kind: 'none needed' };
  // A clock that jumped interrupts no work; what it changes shows in the findings alone.
  if (at < 0 || fault.kind === 'skew') return none;
  const faultSeq = trace[at]!.seq;
  const sends = new SendIndex(sendsOf(trace));
  const after = sends.all.filter((s) => s.seq > faultSeq);
  const cut: CutShort = { work: new WorkBySender(), held: [], own: new Set(), exact: new Set(), sources: new Set(), crashed: undefined, downUntil: Number.POSITIVE_INFINITY, passThrough: 0, answers: undefined, unconfirmed: undefined };
  // A restore takes the restored component down as a crash does, whatever window it struck at.
  if (fault.kind === 'crash' || fault.kind === 'restore') {
    const crashed = fault.kind === 'restore' ? fault.component : fault.window.slice(0, fault.window.indexOf('.'));
    // A component that held no work at all when it crashed cut nothing short, unless it came
    // back further behind than it was and replayed what it had already done.
    if (!crashWork(cut, trace, at, crashed, sends, after, actors, interrupted)) return (actors.has(crashed) ? replayOf(trace, sends, fault, crashed, faultSeq, cut.downUntil) : undefined) ?? (lost ? { kind: 'nobody', idle: true } : { kind: 'none needed', idle: true });
  } else {
    const m = messageFaultOf(trace, at, fault, sends, actors);
    if (m.work !== undefined) cut.work.add(m.work.sender, m.work.work);
    if (m.struck !== undefined && m.struck > faultSeq) cut.sources.add(m.struck);
    cut.answers = m.answers;
    cut.unconfirmed = m.unconfirmed;
    cut.passThrough = m.passThrough;
  }
  // Nothing was sent again as it was: a restarted component may still have re-done the work by
  // replaying its input from recorded positions.
  const crashed = cut.crashed;
  return firstResend(cut, after, sends, faultSeq, actors) ?? (crashed !== undefined && actors.has(crashed) ? replayOf(trace, sends, fault, crashed, faultSeq, cut.downUntil) : undefined) ?? none;
}

/** What a fault cut short, as observeRetry gathers it, and what it takes for no retry. */
interface CutShort {
  readonly work: WorkBySender;
  /** The messages the work was read from, for a later message that asks after it (asksAfter). */
  readonly held: Sent[];
  /**
   * What the crashed component itself had sent or was about to send (the latter with the request
   * it answers): only it sends its own part again, while the work it was handed may be taken up
   * by another (a group's other member, given the record by its broker).
   */
  readonly own: Set<string>;
  readonly exact: Set<string>;
  /** The sends the work was read from are the interrupted work, not its retry. */
  readonly sources: Set<number>;
  crashed: string | undefined;
  /** When the crashed component came back (infinity: it never did). */
  downUntil: number;
  /**
   * Deliveries of the struck message itself that the fault lets through (a delayed or reordered
   * message arrives once, a duplicated one twice) are the network's doing, not a retry.
   */
  passThrough: number;
  /**
   * For a struck reply, the request it answered (see messageFaultOf), and the work a struck
   * message left unconfirmed, which its sender may send again (see unconfirmedOf).
   */
  answers: Sent | undefined;
  unconfirmed: Unconfirmed | undefined;
}

/**
 * The work a crash (or a restore) of `crashed` cut short, added to `cut`: false when it held none
 * at all.
 */
function crashWork(cut: CutShort, trace: readonly TraceEvent[], at: number, crashed: string, sends: SendIndex, after: readonly Sent[], actors: ReadonlySet<string>, interrupted: string | undefined): boolean {
  const { work, held, own, exact, sources } = cut;
  cut.crashed = crashed;
  const faultSeq = trace[at]!.seq;
  const before = sends.all.filter((s) => s.seq < faultSeq);
  // The work in hand is the last work each actor gave it, not only the last message: a caller
  // that crashes on a provider's answer was still handling the record the broker delivered.
  const heardFrom = before.filter((s) => s.to === crashed && actors.has(s.from));
  const lastFrom = new Map<string, Sent>();
  // An answer that only echoes the request it answers (a broker's `subscribed` to a group's
  // `subscribe`) hands over no work: a component that had heard nothing else held none, and the
  // same answer to its next request after a restart is no re-send.
  for (const s of heardFrom) if (s.work !== undefined && !echoesRequest(s, sends)) lastFrom.set(s.from, s);
  // A request it had already answered (its reply, carrying the request's reference, left
  // before the crash) is work done: a server crashed while waiting for its next call holds none.
  // Its reply may still be on its way when it crashes (a delivery while it is down left before
  // the crash): that is work done too, and is no work of its own to send again.
  const restartAt = trace.findIndex((e, i) => i > at && e.kind === 'restart' && e.component === crashed);
  const answeredBy = (s: Sent) => (s.ref === undefined ? undefined : sends.lastBefore(crashed, s.from, restartAt >= 0 ? trace[restartAt]!.seq : Number.POSITIVE_INFINITY, (r) => r.seq > s.seq && r.ref === s.ref));
  const replies = new Set<number>();
  for (const [from, s] of lastFrom) {
    const reply = answeredBy(s);
    if (reply === undefined) continue;
    lastFrom.delete(from);
    replies.add(reply.seq);
  }
  for (const s of lastFrom.values()) {
    work.add(s.from, s.work!);
    held.push(s);
  }
  // When the last thing it heard answered an exchange it had started and not yet finished (a
  // bare acknowledgement, or a reply carrying the reference of its request), what it had sent
  // that peer is the work too, and asking again is the retry.
  const heard = heardFrom.at(-1);
  // Only what it sent before that answer started the exchange: its own reply to a request is
  // the exchange finished, not work in hand.
  const said = before.filter((s) => s.from === crashed && s.to === heard?.from && s.seq < heard.seq && s.work !== undefined && (heard.work === undefined || (heard.ref !== undefined && s.ref === heard.ref))).at(-1);
  if (said?.work !== undefined) {
    own.add(said.work);
    held.push(said);
  }
  if (interrupted !== undefined && !after.some((s) => replies.has(s.seq) && s.work !== undefined && requestWorkOf(s) === interrupted)) exact.add(interrupted);
  // What was on its way to or from it, and what arrived while it was down.
  if (restartAt >= 0) cut.downUntil = trace[restartAt]!.seq;
  for (const s of after) {
    if (s.seq >= cut.downUntil || (s.from !== crashed && s.to !== crashed) || s.work === undefined) continue;
    if (replies.has(s.seq)) {
      sources.add(s.seq);
      continue;
    }
    // Anything it sent that arrives while it is down left before the crash; the first arrival
    // of each work meant for it is what the crash cut short, and a later one is a re-send.
    if (s.from === crashed || (s.to === crashed && !work.has(s))) sources.add(s.seq);
    if (s.from === crashed) own.add(s.work);
    else if (s.to === crashed) work.add(s.from, s.work);
    if (s.from === crashed || s.to === crashed) held.push(s);
  }
  return work.size > 0 || own.size > 0 || exact.size > 0;
}

/** The first message after the fault that sends the work it cut short again, if any. */
function firstResend(cut: CutShort, after: readonly Sent[], sends: SendIndex, faultSeq: number, actors: ReadonlySet<string>): RetryObservation | undefined {
  const { work, held, own, exact, sources, crashed, answers, unconfirmed } = cut;
  // A message's work is a stable JSON of its fields, made on first read; most messages after the
  // fault are from senders that held no work and are not the crashed component, and are only
  // asked whether they carry any.
  for (const s of after) {
    // A database only answers; the retry is owned by whoever asks again.
    if (!actors.has(s.from) || sources.has(s.seq) || !s.carriesWork) continue;
    if (unconfirmed !== undefined && unconfirmed.work.has(s) && s.seq < unconfirmed.until(s.from)) return { kind: 'resent', component: s.from, message: s.type, to: s.to, tick: s.tick };
    // Another component that made the very request the crashed one had made (a group's other
    // member subscribing too) is answered for itself: the answer is not the crashed one's work.
    // Its request is the last message its receiver sent it after the fault.
    const sentBack = own.size > 0 && s.to !== crashed ? sends.lastBefore(s.to, s.from, s.seq) : undefined;
    const askedBy = sentBack !== undefined && sentBack.seq > faultSeq ? sentBack : undefined;
    if (askedBy?.carriesWork && own.has(askedBy.work!)) continue;
    const handed = work.has(s);
    if (answers !== undefined && handed && requestAnswered(s.ref, s.from, s.to, s.seq, sends)?.work !== answers.work) continue;
    if (handed || (s.from === crashed && (own.has(s.work!) || exact.has(requestWorkOf(s)!)))) {
      if (cut.passThrough > 0) {
        cut.passThrough--;
        continue;
      }
      return { kind: 'resent', component: s.from, message: s.type, to: s.to, tick: s.tick };
    }
    if (held.some((w) => asksAfter(s, w))) return { kind: 'resent', component: s.from, message: s.type, to: s.to, tick: s.tick, lookup: true };
  }
  return undefined;
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
  const sent = sendsOf(trace.slice(entered + 1, until));
  const next = sent.find((s) => s.from === component && actors.has(s.to) && s.work !== undefined);
  // A reply to a request that reached it after it entered the window answers work it was handed
  // later: a server waiting for its next call there held nothing to send.
  if (next?.ref !== undefined && sent.some((r) => r.seq < next.seq && r.to === component && r.from === next.to && r.ref === next.ref)) return undefined;
  return next && requestWorkOf(next);
}
