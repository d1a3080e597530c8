// A crash: a process crashes as it enters a window (or a server at a mark inside its step),
// losing its volatile context and keeping its durable one, and restarts after its delay. Every
// process and every server the design lets crash offers it; nothing needs declaring.
import fc from 'fast-check';
import { textField, type WindowFaultOf, type WindowKind } from '../faultKind.ts';

export type CrashFault = WindowFaultOf<'crash'>;

export const crash: WindowKind<CrashFault> = {
  kind: 'crash',
  strikes: 'window',
  declared: false,
  fields: ['window'],
  read: (entry, fail) => ({ kind: 'crash', window: textField(entry, 'window', 'a crash needs a window', fail), occurrence: entry.occurrence }),
  describe: (f, nth) => `crash-and-restart at ${f.window}${nth}`,
  label: () => 'crash',
  nowhere: 'no failure window',
  places: (space) => space.windows.map((window) => ({ window, fault: (occurrence) => ({ kind: 'crash', window, occurrence }) })),
  arbitrary: (space, occurrence) => (space.windows.length === 0 ? undefined : fc.record({ kind: fc.constant('crash' as const), window: fc.constantFrom(...space.windows), occurrence })),
  refuse: () => undefined,
  note: () => undefined,
};
