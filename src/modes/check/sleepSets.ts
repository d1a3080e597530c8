// Sleep sets (Godefroid, "Partial-Order Methods for the Verification of Concurrent Systems", ch. 5):
// a reduction that skips transitions, never states. Where two steps of the search act on
// different components and commute, taking one and then the other reaches the same state as the
// other order; once the search has taken the first from a state, the second order's last step
// need not be taken again, so the first is put to "sleep" in the state the second leads to, and
// stays asleep along every path of steps independent of it. With the visited set, a state that is
// reached again with fewer steps asleep than it was expanded with is expanded again with just the
// steps it skipped before, its sleep set now the meet of the two (Godefroid's rule for sleep sets
// with a state cache), so every reachable state is still visited: the same end states, verdicts
// and window reach, with fewer transitions. A pair of commuting steps reaches its state in as many
// steps either way, and so far every state has been first reached at the same depth as without
// the reduction, so a breadth-first counterexample is as short. test/check/sleepSets.test.ts
// holds the search to both on real designs.
//
// Which steps commute, read from how CheckWorld (src/check/checkWorld.ts) applies them:
// - only a delivery or a restart can sleep. Each changes one component (its target) and appends
//   to that component's outgoing links; a delivery also takes its link's head. Two with different
//   targets commute: neither changes the other's component, a link's head and its tail change
//   independently, links are kept in key order, the send counts are sums, and both stamp the same
//   clock on the progress mark. Neither disables the other: a link's head stays its head, and a
//   component stays down until its own restart.
// - the numbering of unordered sends is the exception: they travel on links named by a counter
//   the whole world shares, so two steps that both send unordered do not commute. A step's
//   target is marked once it has sent unordered, and two marked targets are dependent. The mark
//   comes in time: a step that is asleep was taken, and so applied, from an earlier state whose
//   component it changes is the same as here, and each step is applied before it is compared.
// - a due timer never sleeps, though its step is as local as a delivery. A path ends where the
//   world is quiet, and a quiet state can still have a due timer (an idle component's next poll):
//   had a timer slept behind a delivery whose state is quiet, the states past that timer would
//   be reached only through the quiet state, where no path goes on. Nothing else can be enabled
//   in a quiet state (nothing is in flight, nobody is down), so with timers out of the relation a
//   state on the other order of a commuting pair is never an end that the first order passes.
// - the clock, a release and every fault are dependent on everything: they never sleep, and the
//   state after one starts with nothing asleep.
//
// A sleep set is a bit mask over step ids in two 32-bit lanes, so the search keeps it in the
// visited set's numbers beside the state and meets, joins and compares sets in a few operations.
// The low lane holds steps 0 to 30 (one bit is left for the search's own flag), the high lane
// steps 31 to 62. Steps are numbered as the search first offers them; a step past the 63rd never
// sleeps, which is the answer for a step dependent on everything, and so sound, only less
// reduced. A design has a delivery step per link between two components and a restart per
// component: the catalogue's largest offers 56 within the first twenty thousand transitions of a
// one-fault search.
import type { KernelState as CheckState } from '../../kernel/draft.ts';
import type { Choice } from '../../kernel/kernel.ts';

/** Steps the low lane holds. */
export const LOW_STEPS = 31;

/** The sleep sets of a search: masks over step ids; 0 in both lanes is the empty set. */
export class SleepSets {
  /** Steps that can sleep: the low lane's and the high lane's 32. */
  readonly maxSteps: number;
  /** Step ids of deliveries by link key, and of restarts by component. */
  private readonly deliveries = new Map<string, number>();
  private readonly restarts: number[] = [];
  /** The component each step changes, by step id. */
  private readonly targets: number[] = [];
  /** Components that have sent unordered in a step. */
  private readonly unordered: boolean[] = [];
  /** For each step, the masks of the steps it commutes with; worked out when first asked, again after a change. */
  private commutingLow: (number | undefined)[] = [];
  private commutingHigh: (number | undefined)[] = [];

  /**
   * `lowSteps` is how many steps the low lane holds: at most LOW_STEPS, and fewer only in a test
   * that wants the high lane used by a design with few steps.
   */
  constructor(readonly lowSteps = LOW_STEPS) {
    if (!(lowSteps >= 0 && lowSteps <= LOW_STEPS)) throw new RangeError(`the low lane holds 0 to ${LOW_STEPS} steps, not ${lowSteps}`);
    this.maxSteps = lowSteps + 32;
  }

  /** How many steps are numbered: past lowSteps, sets use the high lane too. */
  get steps(): number {
    return this.targets.length;
  }

  /** The step a choice takes, as a sleep-set member; -1 for a choice that never sleeps. */
  stepOf(s: CheckState, c: Choice): number {
    if (c.kind === 'deliver') {
      const id = this.deliveries.get(c.link);
      if (id !== undefined) return id;
      // A link's receiver is fixed by its key: the key names sender and receiver.
      const added = this.add(s.links.find((l) => l.key === c.link)!.msgs[0]!.to);
      this.deliveries.set(c.link, added);
      return added;
    }
    if (c.kind === 'restart') {
      const id = this.restarts[c.comp];
      if (id !== undefined) return id;
      return (this.restarts[c.comp] = this.add(c.comp));
    }
    return -1;
  }

  /** Marks the target of a step that sent an unordered message. */
  sentUnordered(step: number): void {
    const target = this.targets[step]!;
    if (this.unordered[target]) return;
    this.unordered[target] = true;
    this.forget();
  }

  independent(a: number, b: number): boolean {
    const ta = this.targets[a]!;
    const tb = this.targets[b]!;
    return ta !== tb && !(this.unordered[ta] === true && this.unordered[tb] === true);
  }

  /** The low lane of the steps `step` commutes with: of a set, what stays asleep after `step`. */
  commutingLowOf(step: number): number {
    const mask = this.commutingLow[step];
    return mask ?? this.work(step)[0];
  }

  /** The high lane of the same. */
  commutingHighOf(step: number): number {
    const mask = this.commutingHigh[step];
    return mask ?? this.work(step)[1];
  }

  private work(step: number): [number, number] {
    let low = 0;
    let high = 0;
    for (let x = 0; x < this.targets.length; x++) {
      if (!this.independent(x, step)) continue;
      if (x < this.lowSteps) low |= 1 << x;
      else high |= 1 << (x - this.lowSteps);
    }
    this.commutingLow[step] = low;
    this.commutingHigh[step] = high;
    return [low, high];
  }

  /** A new step changing `target`: its id, or -1 past the steps a set holds. */
  private add(target: number): number {
    if (this.targets.length === this.maxSteps) return -1;
    this.forget();
    return this.targets.push(target) - 1;
  }

  private forget(): void {
    this.commutingLow = [];
    this.commutingHigh = [];
  }

  /** Whether step `x` is in the set with lanes `low` and `high`. */
  has(low: number, high: number, x: number): boolean {
    return x < this.lowSteps ? ((low >>> x) & 1) === 1 : ((high >>> (x - this.lowSteps)) & 1) === 1;
  }
}
