// Reads the design parameters a decision record's figures rest on from the scenario that backs
// them: how long its inbox keeps an event id, when its partner sends a fact again, how long its
// broker keeps records, the waits of its retry schedule, how often its stream processor
// checkpoints, and its event-time policy (watermark delay, window, lateness, what a later fact
// becomes, when a silent partition is left out). They are read from the machine inputs of the
// design as built for the scenario's workload and tick, in seconds, because those inputs are
// what the run really used: a figure taken from here cannot drift from the run it links to.
//
// The inputs read, by field: a database's `tables.inbox.ttlTicks`, a partner's
// `redeliverAfterTicks`, a broker's `retentionTicks`, a consumer's `retry.backoffTicks`, and a
// windowed aggregator's `checkpointEveryTicks`, `windowTicks`, `watermarkDelayTicks`,
// `latenessTicks`, `latePolicy` and `idleTicks`. A design without the component has no value
// for it; two components that disagree make the parameter ambiguous, which is bad input.
import type Big from 'big.js';
import { dec } from '../capacity/units.ts';
import { TimeScale } from '../base/duration.ts';
import { InputError } from '../base/inputError.ts';
import { LATE_POLICIES, type LatePolicy } from '../scenario/recordSpec.ts';
import type { Scenario } from '../scenario/scenario.ts';

/** A stream processor's event-time policy, durations in seconds. */
export interface EventTimePolicy {
  readonly windowSec: Big;
  readonly watermarkDelaySec: Big;
  readonly latenessSec: Big;
  readonly late: LatePolicy;
  /** How long a partition may be silent before it is left out of the watermark; never when absent. */
  readonly idleSec?: Big;
}

/** The parameters a scenario's design sets, each absent where the design has no such component. */
export interface DesignParameters {
  readonly inboxRetentionSec?: Big;
  readonly partnerRedeliverySec?: Big;
  readonly brokerRetentionSec?: Big;
  readonly retryWaitsSec?: readonly Big[];
  readonly checkpointIntervalSec?: Big;
  readonly eventTime?: EventTimePolicy;
}

type Input = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTicks = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The one value `pick` finds among the components' inputs, or undefined when none has it; refused
 * when two components set it differently, since a figure could then stand for either.
 */
function one<T>(scenario: Scenario, inputs: readonly Input[], what: string, pick: (input: Input) => T | undefined, same: (a: T, b: T) => boolean): T | undefined {
  const found = inputs.map(pick).filter((v): v is T => v !== undefined);
  const first = found[0];
  if (first !== undefined && found.some((v) => !same(first, v))) throw new InputError(`scenario ${scenario.name} sets ${what} differently in two components, so a record figure cannot stand for it`);
  return first;
}

/** The design parameters of `scenario`, read from its components as built for its workload. */
export function designParameters(scenario: Scenario): DesignParameters {
  const time = new TimeScale(scenario.tick ?? '1s');
  const seconds = (ticks: number): Big => dec(time.tickSeconds).times(ticks);
  const inputs = scenario.build(scenario.workload, time).map((c) => c.input ?? {});
  const eq = (a: Big, b: Big) => a.eq(b);
  const ticks = (field: string) => (input: Input) => (isTicks(input[field]) ? seconds(input[field]) : undefined);

  const inboxRetentionSec = one(scenario, inputs, 'the inbox retention', (i) => {
    const inbox = isRecord(i['tables']) ? i['tables']['inbox'] : undefined;
    return isRecord(inbox) && isTicks(inbox['ttlTicks']) ? seconds(inbox['ttlTicks']) : undefined;
  }, eq);
  const partnerRedeliverySec = one(scenario, inputs, 'the partner redelivery', ticks('redeliverAfterTicks'), eq);
  const brokerRetentionSec = one(scenario, inputs, 'the broker retention', ticks('retentionTicks'), eq);
  const retryWaitsSec = one(
    scenario,
    inputs,
    'the retry schedule',
    (i) => {
      const backoff = isRecord(i['retry']) ? i['retry']['backoffTicks'] : undefined;
      return Array.isArray(backoff) && backoff.every(isTicks) ? backoff.map(seconds) : undefined;
    },
    (a, b) => a.length === b.length && a.every((x, k) => x.eq(b[k]!)),
  );
  const checkpointIntervalSec = one(scenario, inputs, 'the checkpoint interval', ticks('checkpointEveryTicks'), eq);
  const eventTime = one(
    scenario,
    inputs,
    'the event-time policy',
    (i): EventTimePolicy | undefined => {
      const late = i['latePolicy'];
      if (!isTicks(i['windowTicks']) || !isTicks(i['watermarkDelayTicks']) || !isTicks(i['latenessTicks']) || !LATE_POLICIES.includes(late as LatePolicy)) return undefined;
      return {
        windowSec: seconds(i['windowTicks']),
        watermarkDelaySec: seconds(i['watermarkDelayTicks']),
        latenessSec: seconds(i['latenessTicks']),
        late: late as LatePolicy,
        ...(isTicks(i['idleTicks']) ? { idleSec: seconds(i['idleTicks']) } : {}),
      };
    },
    (a, b) => a.windowSec.eq(b.windowSec) && a.watermarkDelaySec.eq(b.watermarkDelaySec) && a.latenessSec.eq(b.latenessSec) && a.late === b.late && (a.idleSec?.toString() ?? '') === (b.idleSec?.toString() ?? ''),
  );
  return {
    ...(inboxRetentionSec === undefined ? {} : { inboxRetentionSec }),
    ...(partnerRedeliverySec === undefined ? {} : { partnerRedeliverySec }),
    ...(brokerRetentionSec === undefined ? {} : { brokerRetentionSec }),
    ...(retryWaitsSec === undefined ? {} : { retryWaitsSec }),
    ...(checkpointIntervalSec === undefined ? {} : { checkpointIntervalSec }),
    ...(eventTime === undefined ? {} : { eventTime }),
  };
}
