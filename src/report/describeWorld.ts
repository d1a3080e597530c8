// The simulation's own settings in words and durations, as a run prints them at its start (the
// way a simulator prints every derived parameter): how long messages take, how long a delay
// fault holds one, how long a crashed component stays down, how long each phase may last.
import { TimeScale, type Duration } from '../duration.ts';

export function describeWorld(options: Readonly<Record<string, number>>, tick: Duration = '1s'): string {
  const t = new TimeScale(tick);
  const d = (k: string) => (options[k] === undefined ? '?' : t.format(options[k]!));
  return [
    `one tick is ${t.format(1)}`,
    `latency ${d('latencyTicksMin')} to ${d('latencyTicksMax')}`,
    `a delay fault holds a message ${d('delayFaultTicks')}`,
    `restart after ${d('restartDelayTicks')}`,
    `safety phase up to ${d('safetyTicksMax')}`,
    `liveness phase up to ${d('livenessTicksMax')}`,
    `quiet after ${d('quietTicks')}`,
    `at most ${options['stepsMax']} steps`,
  ].join(', ');
}
