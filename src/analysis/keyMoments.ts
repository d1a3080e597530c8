// The steps of a counterexample at which its findings' keys changed, read off a framed run
// (src/run/framedRun.ts) by asking the claims' own observers about the durable state before and
// after each step: the step that committed each outcome under the key (the second one is the
// duplicate), the step that committed the source fact, and the step after which the finding
// first held (a phantom, a regression, a conflict let through). A lost effect has no step of
// its own: it is the effect that never came, and says so. The report draws these steps and marks
// them; they are found by the same checkers that judged the run, so a marked step is never a
// guess from a message's words. A moment is placed on the event that starts the step which made
// the change, never on an event recorded later in that step (a fault it suffered on the way),
// and what already held before the first step (a source fact given with the workload) was made
// by no step and is not marked.
import { checkClaim } from '../checkers/compose.ts';
import { findingKey, type Finding, type Violation } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import type { FramedRun } from '../run/framedRun.ts';
import type { WorldView } from '../kernel/worldView.ts';
import type { Ending } from '../kernel/runReport.ts';
import type { Note } from '../kernel/runEvents.ts';

export interface KeyMoment {
  readonly violation: Violation;
  readonly key: string;
  /**
   * `outcome`: a committed outcome under the key appeared (the `nth`; from the second on, a
   * duplicate); `fact`: the source fact committed; `broke`: the finding holds from here on;
   * `missing`: the effect never came (no step); `applied`: for an order regression, the effect
   * applied a version under the key (the `version`), so the newer and the older are both drawn.
   */
  readonly kind: 'outcome' | 'fact' | 'broke' | 'missing' | 'applied';
  /** The trace index of the event that starts the step; undefined for `missing`. */
  readonly at: number | undefined;
  /** The component whose durable state the step changed (for `missing`: where the effect's other outcomes were committed, if any were). */
  readonly component: string | undefined;
  readonly nth?: number;
  readonly version?: number;
}

/** The durable state of every component as one step of a run found it. */
export interface DurableFrame {
  /** The trace index of the event this frame was noted before (the trace's length for the end). */
  readonly at: number;
  /** The trace index of the event that starts the step this frame falls in: where a change this step made is drawn; -1 before the first step. */
  readonly step: number;
  /** Each component's durable context, in the order of `SteppedRun.components`. */
  readonly durable: readonly unknown[];
}

/** A run as the moments are read from it, whichever driver made it (the World, or a check's choice path). */
export interface SteppedRun {
  readonly components: readonly string[];
  /** A frame before steps of the run, in order, and one after the last. */
  readonly frames: readonly DurableFrame[];
  readonly ending: Ending;
  readonly notes: readonly Note[];
  readonly findings: readonly Finding[];
}

/**
 * A framed World run as the moments read it: from the first step on. A frame noted while the
 * components were still booting shows nothing durable yet, and what the boot gave them (the
 * workload's records) was made by no step.
 */
export function steppedRunOf(run: FramedRun): SteppedRun {
  const first = run.frames.findIndex((f) => f.step >= 0);
  return { components: run.components.map((c) => c.name), frames: run.frames.slice(Math.max(0, first)), ending: run.record.report.ending, notes: run.record.report.notes, findings: run.record.findings };
}

/** What one frame shows about a key. */
interface Reading {
  readonly outcomes: number;
  readonly fact: boolean;
  readonly broke: boolean;
  /** The versions applied under the key, in commit order (read for an order regression only). */
  readonly versions: readonly number[];
}

/** A claim's observer may not expect a world caught between two steps: what it cannot read counts as nothing. */
function quietly<T>(read: () => T, otherwise: T): T {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

function viewAt(run: SteppedRun, frame: DurableFrame): WorldView {
  return {
    durable: <T>(name: string) => frame.durable[run.components.indexOf(name)] as T,
    result: { ending: run.ending },
    notes: run.notes.filter((n) => n.seq < frame.at),
  };
}

function read(claim: Claim, view: WorldView, finding: Finding & { readonly key: string }): Reading {
  const outcomes = quietly(() => claim.outcomes(view).filter((o) => o.key === finding.key).length, 0);
  const fact = quietly(() => (claim.facts?.(view) ?? []).includes(finding.key), false);
  const broke = quietly(() => checkClaim(claim, view).findings.some((f) => f.violation === finding.violation && findingKey(f) === finding.key), false);
  const versions = finding.violation === 'order regression' ? quietly(() => claim.versions?.(view)[finding.key] ?? [], [] as readonly number[]) : [];
  return { outcomes, fact, broke, versions };
}

/** The component whose durable state differs between two frames, the first in the design's order. */
function changed(run: SteppedRun, before: DurableFrame, after: DurableFrame): string | undefined {
  const i = before.durable.findIndex((d, k) => d !== after.durable[k]);
  return i < 0 ? undefined : run.components[i];
}

/** The moments of one finding, in the order of the trace. */
function momentsOf(run: SteppedRun, claim: Claim, finding: Finding & { readonly key: string }): KeyMoment[] {
  const out: KeyMoment[] = [];
  const base = { violation: finding.violation, key: finding.key };
  const { frames } = run;
  // What held before the first step is where the reading starts: no step made it.
  let last: Reading = frames.length === 0 ? { outcomes: 0, fact: false, broke: false, versions: [] } : read(claim, viewAt(run, frames[0]!), finding);
  let outcomeAt: string | undefined;
  for (let i = 1; i < frames.length; i++) {
    const before = frames[i - 1]!;
    const after = frames[i]!;
    // Only a step that changed something durable can change what the observers read. The World
    // reads as the step found it until the step ends, so the change shows in the frame after the
    // step's last event, and belongs to the event that started the step.
    const component = changed(run, before, after);
    if (component === undefined) continue;
    const now = read(claim, viewAt(run, after), finding);
    const at = before.step;
    for (let n = last.outcomes + 1; n <= now.outcomes; n++) out.push({ ...base, kind: 'outcome', at, component, nth: n });
    if (now.outcomes > 0) outcomeAt ??= component;
    if (now.fact && !last.fact) out.push({ ...base, kind: 'fact', at, component });
    // Each version the step applied: a regression is two of them in the wrong order.
    for (const version of now.versions.slice(last.versions.length)) out.push({ ...base, kind: 'applied', at, component, version });
    // A duplicate breaks with its second outcome, which is already marked.
    if (now.broke && !last.broke && finding.violation !== 'duplicate effect' && finding.violation !== 'lost effect') out.push({ ...base, kind: 'broke', at, component });
    last = now;
  }
  if (finding.violation === 'lost effect') out.push({ ...base, kind: 'missing', at: undefined, component: outcomeAt ?? effectHome(run, claim) });
  return out;
}

/** Where a claim's effect is committed at all: the first component whose change added an outcome under any key. */
function effectHome(run: SteppedRun, claim: Claim): string | undefined {
  let count = run.frames.length === 0 ? 0 : quietly(() => claim.outcomes(viewAt(run, run.frames[0]!)).length, 0);
  for (let i = 1; i < run.frames.length; i++) {
    const component = changed(run, run.frames[i - 1]!, run.frames[i]!);
    if (component === undefined) continue;
    const now = quietly(() => claim.outcomes(viewAt(run, run.frames[i]!)).length, 0);
    if (now > count) return component;
    count = now;
  }
  return undefined;
}

/** The most keys of one violation whose moments are looked for: a report centres on the first few. */
export const MOMENT_KEYS = 3;

/** The moments of a framed World run's findings of `violation` (see `steppedMoments`). */
export function keyMoments(run: FramedRun, claims: readonly Claim[], violation: Violation): KeyMoment[] {
  return steppedMoments(steppedRunOf(run), claims, violation);
}

/** The moments of the run's findings of `violation` that name a key (the first `MOMENT_KEYS`), in the order of its findings. */
export function steppedMoments(run: SteppedRun, claims: readonly Claim[], violation: Violation): KeyMoment[] {
  const out: KeyMoment[] = [];
  const findings = run.findings.filter((f) => f.violation === violation && findingKey(f) !== undefined).slice(0, MOMENT_KEYS);
  for (const f of findings) {
    const key = findingKey(f);
    const claim = claims.find((c) => c.effect === f.effect);
    if (key === undefined || claim === undefined) continue;
    out.push(...momentsOf(run, claim, { ...f, key } as Finding & { readonly key: string }));
  }
  return out;
}
