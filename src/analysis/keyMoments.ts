// The steps of a counterexample at which its findings' keys changed, read off a framed run
// (src/run/framedRun.ts) by asking the claims' own observers about the durable state before and
// after each step: the step that committed each outcome under the key (the second one is the
// duplicate), the step that committed the source fact, and the step after which the finding
// first held (a phantom, a regression, a conflict let through). A lost effect has no step of
// its own: it is the effect that never came, and says so. The report draws these steps and marks
// them; they are found by the same checkers that judged the run, so a marked step is never a
// guess from a message's words.
import { checkClaim } from '../checkers/compose.ts';
import { findingKey, type Finding, type Violation } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import type { FramedRun, WorldFrame } from '../run/framedRun.ts';
import type { WorldView } from '../kernel/worldView.ts';

export interface KeyMoment {
  readonly violation: Violation;
  readonly key: string;
  /**
   * `outcome`: a committed outcome under the key appeared (the `nth`; from the second on, a
   * duplicate); `fact`: the source fact committed; `broke`: the finding holds from here on;
   * `missing`: the effect never came (no step).
   */
  readonly kind: 'outcome' | 'fact' | 'broke' | 'missing';
  /** The trace index of the event that starts the step; undefined for `missing`. */
  readonly at: number | undefined;
  /** The component whose durable state the step changed (for `missing`: where the effect's other outcomes were committed, if any were). */
  readonly component: string | undefined;
  readonly nth?: number;
}

/** What one frame shows about a key. */
interface Reading {
  readonly outcomes: number;
  readonly fact: boolean;
  readonly broke: boolean;
}

/** A claim's observer may not expect a world caught between two steps: what it cannot read counts as nothing. */
function quietly<T>(read: () => T, otherwise: T): T {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

function viewAt(run: FramedRun, frame: WorldFrame): WorldView {
  const names = run.components.map((c) => c.name);
  return {
    durable: <T>(name: string) => frame.durable[names.indexOf(name)] as T,
    result: { ending: run.record.report.ending },
    notes: run.record.report.notes.filter((n) => n.seq < frame.at),
  };
}

function read(claim: Claim, view: WorldView, finding: Finding & { readonly key: string }): Reading {
  const outcomes = quietly(() => claim.outcomes(view).filter((o) => o.key === finding.key).length, 0);
  const fact = quietly(() => (claim.facts?.(view) ?? []).includes(finding.key), false);
  const broke = quietly(() => checkClaim(claim, view).findings.some((f) => f.violation === finding.violation && findingKey(f) === finding.key), false);
  return { outcomes, fact, broke };
}

/** The component whose durable state differs between two frames, the first in the design's order. */
function changed(run: FramedRun, before: WorldFrame, after: WorldFrame): string | undefined {
  const i = before.durable.findIndex((d, k) => d !== after.durable[k]);
  return i < 0 ? undefined : run.components[i]!.name;
}

/** The moments of one finding, in the order of the trace. */
function momentsOf(run: FramedRun, claim: Claim, finding: Finding & { readonly key: string }): KeyMoment[] {
  const out: KeyMoment[] = [];
  const base = { violation: finding.violation, key: finding.key };
  const { frames } = run;
  let last: Reading = { outcomes: 0, fact: false, broke: false };
  let outcomeAt: string | undefined;
  for (let i = 1; i < frames.length; i++) {
    const before = frames[i - 1]!;
    const after = frames[i]!;
    // Only a step that changed something durable can change what the observers read.
    const component = changed(run, before, after);
    if (component === undefined) continue;
    const now = read(claim, viewAt(run, after), finding);
    for (let n = last.outcomes + 1; n <= now.outcomes; n++) out.push({ ...base, kind: 'outcome', at: before.at, component, nth: n });
    if (now.outcomes > 0) outcomeAt ??= component;
    if (now.fact && !last.fact) out.push({ ...base, kind: 'fact', at: before.at, component });
    // A duplicate breaks with its second outcome, which is already marked.
    if (now.broke && !last.broke && finding.violation !== 'duplicate effect' && finding.violation !== 'lost effect') out.push({ ...base, kind: 'broke', at: before.at, component });
    last = now;
  }
  if (finding.violation === 'lost effect') out.push({ ...base, kind: 'missing', at: undefined, component: outcomeAt ?? effectHome(run, claim) });
  return out;
}

/** Where a claim's effect is committed at all: the first component whose change added an outcome under any key. */
function effectHome(run: FramedRun, claim: Claim): string | undefined {
  let count = 0;
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

/** The moments of the run's findings of `violation` that name a key (the first `MOMENT_KEYS`), in the order of its findings. */
export function keyMoments(run: FramedRun, claims: readonly Claim[], violation: Violation): KeyMoment[] {
  const out: KeyMoment[] = [];
  const findings = run.record.findings.filter((f) => f.violation === violation && findingKey(f) !== undefined).slice(0, MOMENT_KEYS);
  for (const f of findings) {
    const key = findingKey(f);
    const claim = claims.find((c) => c.effect === f.effect);
    if (key === undefined || claim === undefined) continue;
    out.push(...momentsOf(run, claim, { ...f, key } as Finding & { readonly key: string }));
  }
  return out;
}
