// An event as its receiver gets it: stamped with the tick it arrived and, for a message, with
// its sender's name. Machines have no clock of their own, so retention, TTLs and the order a
// server answers in read these stamps.
import type { EventObject } from 'xstate';

/**
 * A copy of `event` stamped with `at` and, when given, `from`. A copy, because the sender may
 * keep the event it sent (a broker keeps the record it delivers). `Object.assign` rather than a
 * spread: a spread site that sees every event shape of every model is megamorphic, and V8 then
 * copies on a slow path that costs several times as much, on every delivery of every run.
 */
export function arrived(event: EventObject, from: string | undefined, at: number): EventObject {
  const out = Object.assign({}, event) as EventObject & { from?: string; at?: number };
  if (from !== undefined) out.from = from;
  out.at = at;
  return out;
}
