// An explore case's schedule of message latencies in words: which messages, counted in the order
// they were sent, took longer than the least latency, and by how much. A shrunk schedule names
// only the late messages its failure needs, so the line stays short.
import { TimeScale, type Duration } from '../base/duration.ts';

export function describeSchedule(latencies: readonly number[], tick: Duration = '1s'): string {
  const t = new TimeScale(tick);
  const late = latencies.flatMap((extra, i) => (extra > 0 ? [`message ${i + 1} (${t.format(extra)} more)`] : []));
  const but = late.length === 0 ? '' : ` but ${late.join(', ')}`;
  return `every message at the least latency${but}, messages counted in the order sent`;
}
