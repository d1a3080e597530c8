// A delayed message: the n-th message of a kind on a link lands later than any latency the world
// draws (WorldOptions.delayFaultTicks), so timers fire and other messages pass it.
import { transportKind } from '../faultKind.ts';

export const delay = transportKind('delay', { drawn: 'delayed', act: (ops) => ops.later(ops.delayTicks) });
