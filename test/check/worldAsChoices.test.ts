// The check's world and the World are one semantics: a World run, read back from its trace, is a
// path through CheckWorld (with the World's latency window), and that path ends in the same
// durable state with the same verdict. Each World event names the choice that makes it happen:
// a delivery, a timer, a restart, a crash, a restore, a skew; the clock advances to the event's
// tick; a message fault the World applied when the message was sent is applied in the check when
// that message reaches the head of its link. Runs the translation cannot express are counted by
// reason and must stay few: the World's heal restarts a crashed component early and releases a
// held message at the end of its safety phase, which a check, having no phases, does neither; a
// check offers no reorder of a request sent on a connection of its own, whose order it leaves
// free already (the World holds it back until the next send on the same link); and a rebalance's
// notice the World sends with the message, so it may land before the message could, where a
// check sends it as it strikes the message at its link's head. The translation does not follow
// a server's crash inside its step, and says so.
// Every run that translates also gives the same events: the check's path, traced, and the World's
// trace agree on a projection of them that leaves out ticks (see `projection`). The quick suite
// compares a few designs at two seeds; the catalogue suite every catalogue scenario at one, where
// every run the translation follows must agree.
import { describe, expect, it } from 'vitest';
import type { KernelState as CheckState } from '../../src/kernel/draft.ts';
import type { Kernel as CheckWorld, Choice } from '../../src/kernel/kernel.ts';
import type { StepLog } from '../../src/kernel/stepLog.ts';
import { checkSetup, judgeEnd } from '../../src/modes/check/check.ts';
import { catalogueNames, loadScenario } from '../../src/scenario/catalogue.ts';
import { sampled } from '../support/suite.ts';
import { faultSpace } from '../../src/modes/faultSpace.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { stableJson, Trace, type TraceEvent, type TraceKind } from '../../src/kernel/trace.ts';

type Mark = 'lose' | 'duplicate' | 'delay' | 'reorder';

class Untranslatable extends Error {}

/** A World event that begins a step the check takes as a choice of its own, or the World's heal; the step's other events follow it. */
const startsStep = (e: TraceEvent) =>
  e.kind === 'deliver' || e.kind === 'timer' || e.kind === 'restart' || e.kind === 'crash' || e.kind === 'phase' || e.kind === 'restore' || e.kind === 'skew' || (e.kind === 'drop' && !CRASH_DROPS.has((e.data as { reason?: string }).reason!));
const CRASH_DROPS = new Set(['sender crashed', 'receiver crashed']);

/**
 * Drives a CheckWorld along a World trace, recording the path's events in `log`; returns the state
 * it ends in and how many of the World's events the path covers (up to the World's first step past
 * the path's end).
 */
function translate(world: CheckWorld, trace: readonly TraceEvent[], log: StepLog): { state: CheckState; steps: number; covered: number } {
  let s = world.initial(log);
  let covered = trace.length;
  let steps = 0;
  const marks = new Map<object, Mark>();
  /** Whether the events being read belong to a restore's step. */
  let restoring = false;
  const duplicated = new Set<object>();
  const names = world.names;
  // A state's choices, made once: the translation asks for them several times a step.
  let chosenFor: CheckState | undefined;
  let offered: Choice[] = [];
  const choices = (): Choice[] => {
    if (chosenFor !== s) {
      offered = world.choices(s);
      chosenFor = s;
    }
    return offered;
  };
  const ended = () => world.end(s, choices()) !== undefined;
  const take = (want: (c: Choice) => boolean, what: string) => {
    const choice = choices().find(want);
    if (choice === undefined) throw new Untranslatable(`no choice for ${what} at t=${s.now}${process.env.DEBUG_TRANSLATE ? ` (${JSON.stringify(choices())})` : ''}`);
    s = world.apply(s, choice, log);
    steps++;
  };
  /** Applies the faults the World struck at send time to messages now at the head of their link. */
  const settle = () => {
    for (let again = true; again; ) {
      again = false;
      for (const l of s.links) {
        const m = l.msgs[0];
        const mark = m && marks.get(m);
        if (!m || !mark || mark === 'duplicate' || m.earliest > s.now) continue;
        marks.delete(m);
        take((c) => c.kind === mark && 'link' in c && c.link === l.key, `${mark} on ${l.key}`);
        again = true;
        break;
      }
    }
  };
  const advanceTo = (tick: number) => {
    for (settle(); s.now < tick; settle()) {
      const advance = choices().find((c) => c.kind === 'advance');
      if (!advance || advance.to > tick) throw new Untranslatable(`the clock cannot reach t=${tick} from t=${s.now}${process.env.DEBUG_TRANSLATE ? ` (${JSON.stringify(choices())} ${JSON.stringify(s.links.map((l) => [l.key, l.msgs.map((m) => [m.event.type, m.earliest, m.deadline])]))})` : ""}`);
      s = world.apply(s, advance, log);
      steps++;
    }
  };
  // Two requests on connections of their own may carry the same event: the one that can land now.
  const headOf = (from: string, to: string, event: unknown) => {
    const wanted = stableJson(event);
    return s.links
      .filter((l) => (l.key === `${from}->${to}` || l.key.startsWith(`${from}->${to}#`)) && l.msgs[0] !== undefined && stableJson(l.msgs[0].event) === wanted)
      .sort((a, b) => Number(a.msgs[0]!.earliest > s.now) - Number(b.msgs[0]!.earliest > s.now) || a.msgs[0]!.deadline - b.msgs[0]!.deadline)[0];
  };
  for (const [k, e] of trace.entries()) {
    if (ended()) {
      // The path ended after the World's step that event k - 1 belongs to: the rest of that step
      // is covered. A search goes on from an end by a fault only: here, the World's crash of a
      // process as it entered the window it would rest in for good.
      let next = k;
      while (next < trace.length && !startsStep(trace[next]!)) next++;
      const e2 = trace[next];
      const struck = e2?.kind === 'crash' && choices().some((c) => c.kind === 'crash' && c.at === undefined && names[c.comp] === e2.component);
      if (!struck) {
        covered = next;
        break;
      }
    }
    const d = e.data as { from?: string; to?: string; event?: { type: string }; reason?: string } | undefined;
    if (startsStep(e) && e.kind !== 'restore' && e.kind !== 'crash') restoring = false;
    switch (e.kind) {
      case 'deliver':
      case 'drop': {
        // A drop that gives a reason happens inside a step (a crash, a restart, a reply on a
        // closed connection), not as a delivery of its own.
        if (d?.reason !== undefined) break;
        // A crash notice to a component that never handles one: a search does not send it.
        if (unheard(e)) break;
        advanceTo(e.tick);
        const link = headOf(d!.from!, e.component, d!.event);
        if (!link) throw new Untranslatable(`${d!.event!.type} from ${d!.from} is not at the head of a link at t=${e.tick}`);
        const m = link.msgs[0]!;
        if (marks.get(m) === 'duplicate' && !duplicated.has(m)) {
          duplicated.add(m);
          take((c) => c.kind === 'duplicate' && c.link === link.key, `duplicate on ${link.key}`);
        } else take((c) => c.kind === 'deliver' && c.link === link.key, `deliver on ${link.key}`);
        break;
      }
      case 'timer': {
        advanceTo(e.tick);
        const comp = names.indexOf(e.component);
        take((c) => c.kind === 'timer' && c.comp === comp && s.comps[comp]!.timers.some((t) => t.id === c.id && t.event.type === e.data), `timer ${String(e.data)} of ${e.component}`);
        break;
      }
      case 'restart': {
        advanceTo(e.tick);
        const comp = names.indexOf(e.component);
        take((c) => c.kind === 'restart' && c.comp === comp, `restart of ${e.component}`);
        break;
      }
      case 'restore': {
        // The World restores a component as a process enters the window the plan names; the
        // check's choice names the component and the process resting in that window. A
        // component restored together with it (a database with its group's offsets) is part of
        // the same step.
        if (restoring) break;
        restoring = true;
        advanceTo(e.tick);
        const comp = names.indexOf(e.component);
        const window = (e.data as { window: string }).window;
        take((c) => c.kind === 'restore' && c.comp === comp && (world.faultEntry(s, c, new Map()) as { window: string }).window === window, `restore of ${e.component} at ${window}`);
        break;
      }
      case 'skew': {
        advanceTo(e.tick);
        const comp = names.indexOf(e.component);
        take((c) => c.kind === 'skew' && c.comp === comp, `skew of ${e.component}`);
        break;
      }
      case 'rebalance':
        // The World sends a rebalance's notice back as the message is sent, so it may land before
        // the message could; a check strikes it at the link's head.
        throw new Untranslatable('a rebalance, whose notice the World sends with the message and a check at the head of its link');
      case 'crash': {
        // A restore takes its component down as part of its own step.
        const before = trace[k - 1];
        if (before?.kind === 'restore' && before.component === e.component) break;
        advanceTo(e.tick);
        const comp = names.indexOf(e.component);
        if (!world.components[comp]!.process) throw new Untranslatable("a crash inside a server's step, which this translation does not follow");
        take((c) => c.kind === 'crash' && c.comp === comp, `crash of ${e.component}`);
        break;
      }
      case 'lose':
      case 'duplicate':
      case 'delay':
      case 'reorder': {
        // Struck when sent: the newest such message on its link (the sender's step was just taken,
        // and may have sent more behind it).
        const candidates = s.links
          .filter((l) => l.key === `${e.component}->${d!.to}` || l.key.startsWith(`${e.component}->${d!.to}#`))
          .flatMap((l) => l.msgs.map((m) => ({ m, own: l.key.includes('#') })))
          .filter(({ m }) => !marks.has(m) && stableJson(m.event) === stableJson(d!.event));
        const struck = candidates.at(-1);
        if (!struck) throw new Untranslatable(`the ${e.kind} message is not on its link`);
        if (struck.own && e.kind === 'reorder') throw new Untranslatable('a reorder of a request on a connection of its own, whose order a check leaves free already');
        marks.set(struck.m, e.kind);
        break;
      }
      case 'phase':
        if (s.comps.some((c) => c.down)) throw new Untranslatable('the heal restarts a crashed component early');
        if (s.links.some((l) => l.held.length > 0)) throw new Untranslatable('the heal releases a held message');
        // The World heals where its phase with faults went quiet, a search where a path first
        // goes quiet: the same moment, and the same choice of its own. A World whose phase with
        // faults ran to its bound (a retry that never ends) heals there, busy; a search has no
        // such bound, and its path goes on without a heal.
        settle();
        if (choices().some((c) => c.kind === 'heal')) take((c) => c.kind === 'heal', 'the heal');
        break;
      default:
        break;
    }
  }
  // The World stopped here; the check's path goes on to its own end, the clock running on.
  for (let guard = 0; !ended(); guard++) {
    // A fault the World struck as a message was sent lands here, and may end the path itself.
    settle();
    if (ended()) break;
    const next = choices().find((c) => c.kind === 'advance' || c.kind === 'timer' || c.kind === 'restart' || c.kind === 'deliver');
    if (!next || guard > 100_000) throw new Untranslatable('the path does not end');
    s = world.apply(s, next, log);
    steps++;
  }
  return { state: s, steps, covered };
}

/**
 * The events of a run that both sides record alike, in order; their ticks are left out when it is
 * hashed (`projectionHash`). A World run's ticks are drawn latencies and a check's path takes each
 * message's earliest tick, so only the order and content of the events can agree. Left out:
 * - `start` (each side names its own plan, seed or choices) and the World's `phase` marker (a
 *   check has no phases);
 * - a fault's announcements: the `fault` event (the World's names the plan's fault with its
 *   occurrence, the check's the choice it took) and a message fault's mark on its sender (`lose`,
 *   `duplicate`, `delay`, `reorder`, `rebalance`), which the World records as the message is sent
 *   and the check as it strikes the message at the head of its link. What the fault does stays:
 *   a delivery missing, twice or in another order; a crash, its drops and its restart.
 * The World's run is compared up to the end of the check's path (`covered`), which is the World's
 * heal or later: past it the World runs its liveness phase, whose quiet period starts again at the
 * heal and whose liveness bound counts from the heal, not from the last fault, so it goes on with
 * steps the check's path does not take (idle polls; the durable state of a run that is not cut
 * is compared whole). A fault the World strikes as a process enters its window on booting (a
 * crash, a restore, a skew) comes before the components after it in design order boot; a check's
 * initial state boots every component, and its fault is the path's first choice, so the World's
 * (with the crashes and drops it causes) is moved behind the last boot. And the messages one crash
 * drops are put in one order, since both sides drop them at one moment.
 */
function projection(events: readonly TraceEvent[]): TraceEvent[] {
  const kept = events.filter((e) => !LEFT_OUT.has(e.kind) && !unheard(e));
  const boot = kept.findIndex((e) => !BOOT_FAULTS.has(e.kind) && startsStep(e));
  const bootEnd = boot < 0 ? kept.length : boot;
  const fault = kept.findIndex((e, i) => i < bootEnd && BOOT_FAULTS.has(e.kind));
  if (fault >= 0) {
    // The fault's own events: a restore's crash (and those of a component restored with it), and
    // the drops a crash causes.
    let after = fault + 1;
    while (after < bootEnd && (kept[after]!.kind === 'drop' || (kept[fault]!.kind === 'restore' && (kept[after]!.kind === 'crash' || kept[after]!.kind === 'restore')))) after++;
    kept.splice(bootEnd - (after - fault), 0, ...kept.splice(fault, after - fault));
  }
  // The messages a crash (or a restart) finds on their way to its component are dropped at one
  // moment; the World records them in the order they were due, a search (which numbers nothing) in
  // its links' order.
  for (let i = 0; i < kept.length; ) {
    let j = i;
    while (j < kept.length && isCrashDrop(kept[j]!) && kept[j]!.component === kept[i]!.component) j++;
    if (j - i > 1) kept.splice(i, j - i, ...kept.slice(i, j).sort((a, b) => (stableJson(a.data) < stableJson(b.data) ? -1 : 1)));
    i = Math.max(j, i + 1);
  }
  return kept;
}
/**
 * The components whose machine has no transition for a peer's crash notice, for the scenario
 * being compared: the World delivers them the notice, which changes nothing, and a search leaves
 * it out (src/kernel/kernel.ts, crash), so the translation skips its delivery and the projection
 * leaves it out.
 */
let deaf: ReadonlySet<string> = new Set();
const unheard = (e: TraceEvent) => e.kind === 'deliver' && deaf.has(e.component) && (e.data as { event?: { type?: string } } | undefined)?.event?.type === 'sys.peerCrashed';
/** A drop of what was on its way to a component as it crashed, or as it restarted (what was sent to it while down). */
const isCrashDrop = (e: TraceEvent) => e.kind === 'drop' && ['receiver crashed', 'receiver down when sent'].includes((e.data as { reason?: string }).reason ?? '');

/** The faults a World may strike as a process enters its window on booting. */
const BOOT_FAULTS = new Set<TraceKind>(['crash', 'restore', 'skew']);
const LEFT_OUT = new Set<TraceKind>(['start', 'phase', 'fault', 'lose', 'duplicate', 'delay', 'reorder', 'rebalance']);

/** A projection's hash, as the trace hashes its events (sha-256 of their lines), with every tick 0. */
function projectionHash(events: readonly TraceEvent[]): string {
  const trace = new Trace(false, true);
  for (const e of events) trace.add(0, e.component, e.kind, e.data);
  return trace.hash();
}

/** Where two projections part, for a failure message. */
function firstDifference(world: readonly TraceEvent[], check: readonly TraceEvent[]): string {
  const line = (e: TraceEvent | undefined) => (e === undefined ? '(none)' : `${e.component} ${e.kind} ${e.data === undefined ? '' : stableJson(e.data)}`);
  let i = 0;
  while (i < world.length && i < check.length && line(world[i]) === line(check[i])) i++;
  return `event ${i} of ${world.length} (World) and ${check.length} (check): World ${line(world[i])}, check ${line(check[i])}`;
}

async function compare(name: string, plans: (scenario: Scenario) => FaultPlan[], seeds: readonly number[]) {
  const { scenario } = await loadScenario(name);
  const skipped = new Map<string, number>();
  let agreed = 0;
  // One check setup per fault budget: a path starts from the world's initial state each time.
  const setups = new Map<number, ReturnType<typeof checkSetup>>();
  const setupFor = (faults: number) => {
    let setup = setups.get(faults);
    if (setup === undefined) setups.set(faults, (setup = checkSetup(scenario, { faults, worldLatency: true })));
    return setup;
  };
  // The components the search's kernel leaves out of a crash's notices.
  const { world } = setupFor(1);
  deaf = new Set(world.names.filter((_, i) => !world.hearsCrash[i]));
  for (const seed of seeds) {
    for (const plan of plans(scenario)) {
      // The World's events are compared by projection; its own trace hash is not read.
      const run = runScenario(scenario, { seed, plan, keepTrace: true, hashTrace: false });
      const setup = setupFor(plan.length);
      const traced: TraceEvent[] = [];
      const log: StepLog = { trace: (tick, component, kind, data) => traced.push({ tick, seq: traced.length, component, kind, data }), enter: () => undefined };
      let ended;
      try {
        ended = translate(setup.world, run.report.trace!, log);
      } catch (error) {
        if (!(error instanceof Untranslatable)) throw error;
        if (process.env.DEBUG_TRANSLATE) console.log(name, seed, JSON.stringify(plan), error.message);
        const reason = error.message.replace(/t=\d+/g, "t").replace(/from t to t/, "");
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
        continue;
      }
      const end = setup.world.end(ended.state, setup.world.choices(ended.state))!;
      const judged = judgeEnd(scenario, setup.world.durable(ended.state), end);
      const where = `${name} seed ${seed} plan ${JSON.stringify(plan)}`;
      // A run the liveness bound cut is judged stuck by both; how far each got before its bound is
      // no part of the verdict.
      const cut = run.report.ending.kind === 'stuck' && run.report.ending.reason.kind === 'no quiescence';
      if (!cut) expect(stableJson(setup.world.durable(ended.state)), where).toBe(stableJson(run.report.durable));
      expect(judged.outcome, where).toBe(run.outcome);
      // The same findings, each naming the same claim, clause and key (a cut run's are its bound's).
      if (!cut) expect(judged.findings.map((f) => stableJson(f)), where).toEqual(run.findings.map((f) => stableJson(f)));
      // The same events in the same order, their ticks left out (a cut run's too, up to the check's bound).
      const trace = run.report.trace!;
      // Every path goes on at least to the World's heal: a path that ended before it would leave
      // out a fault the World struck (a search once ended a path at the state whose window the
      // World then crashed its process in, and never took that crash).
      const heal = trace.findIndex((e) => e.kind === 'phase');
      expect(heal < 0 || ended.covered >= heal, `${where}: the path ended before the World's heal, at ${stableJson(trace[ended.covered])}`).toBe(true);
      const world = projection(trace.slice(0, ended.covered));
      const check = projection(traced);
      const [worldHash, checkHash] = [projectionHash(world), projectionHash(check)];
      expect(checkHash, worldHash === checkHash ? where : `${where}: ${firstDifference(world, check)}`).toBe(worldHash);
      agreed++;
    }
  }
  return { agreed, skipped };
}

const singles = (scenario: Scenario) => {
  const reference = runScenario(scenario, { seed: 1, plan: [] });
  return faultSpace(reference, { maxOccurrence: 1 }).singles.map((f) => [f]);
};

describe('a World run is a path of the check', () => {
  // mercury-outbox-two-relays: a lost commit leaves a claim's locks held until the database's
  // idle-in-transaction timeout, re-armed for the rest of its wait, rolls it back; the check's
  // quiet rule once ended the path before that, with the outbox row never published again.
  it.each(['mercury-outbox', 'mercury-dual-write-commit-first', 'inventory-two-events-inbox-only', 'checkout-stable-key', 'ordering-concurrent-relay-no-version-check', 'dedup-horizon-covers-redelivery', 'mercury-outbox-two-relays'])(
    '%s: every single fault at seeds 1 and 2 ends in the same durable state and outcome, with the same events',
    async (name) => {
      const { agreed, skipped } = await compare(name, singles, [1, 2]);
      const untranslated = [...skipped.values()].reduce((a, b) => a + b, 0);
      // Most runs translate; those that do not are the heal's own moves, named by reason.
      expect(agreed).toBeGreaterThan(4 * untranslated);
      for (const reason of skipped.keys()) expect(reason).toMatch(/heal|connection of its own/);
    },
    120_000,
  );

  it('the fault-free run at ten seeds, where nothing is left to the heal', async () => {
    const { agreed, skipped } = await compare('mercury-outbox', () => [[]], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(skipped.size).toBe(0);
    expect(agreed).toBe(10);
  });

  // Every catalogue scenario: the runs the translation follows all agree, and those it does not
  // are counted by reason. Its gaps are its own (a server's crash inside a step, a restore, a
  // skew, a rebalance, the heal) or a message it cannot find at a link's head where the World's
  // latencies let two runs of one link interleave differently.
  it.each(sampled(catalogueNames(), () => false).map((name) => [name]))('%s: every single fault at seed 1 that translates agrees, with the same events', async (name) => {
    const { agreed, skipped } = await compare(name, singles, [1]);
    expect(agreed).toBeGreaterThan(0);
    for (const reason of skipped.keys()) expect(reason).toMatch(/heal|connection of its own|does not follow|a rebalance|not at the head of a link|the clock cannot reach|no choice for/);
  });
});
