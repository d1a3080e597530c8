// The simulation's own settings in words and durations, as a run prints them at its start (the
// way a simulator prints every derived parameter): how long messages take, how long a delay
// fault holds one, how long a crashed component stays down, how long each phase may last. A
// setting the run does not have (a check has no safety phase and no step bound) is left out.
import { TimeScale, type Duration } from '../base/duration.ts';

export function describeWorld(options: Readonly<Record<string, number>>, tick: Duration = '1s'): string {
  const t = new TimeScale(tick);
  const d = (k: string) => (options[k] === undefined ? '?' : t.format(options[k]!));
  const has = (...keys: string[]) => keys.every((k) => options[k] !== undefined);
  const latency = options['latencyTicksMax'] === 0 ? 'messages land before the clock moves' : `latency ${d('latencyTicksMin')} to ${d('latencyTicksMax')}`;
  return [
    `one tick is ${t.format(1)}`,
    has('latencyTicksMin', 'latencyTicksMax') ? latency : '',
    has('delayFaultTicks') ? `a delay fault holds a message ${d('delayFaultTicks')}` : '',
    // The world's default only: a component whose design sets `restartAfter` keeps its own.
    has('restartDelayTicks') ? `restart after ${d('restartDelayTicks')} (unless a component sets its own)` : '',
    has('safetyTicksMax') ? `safety phase up to ${d('safetyTicksMax')}` : '',
    has('livenessTicksMax') ? `liveness phase up to ${d('livenessTicksMax')}` : '',
    has('quietTicks') ? `quiet after ${d('quietTicks')}` : '',
    has('stepsMax') ? `at most ${options['stepsMax']} steps` : '',
  ]
    .filter((x) => x !== '')
    .join(', ');
}
