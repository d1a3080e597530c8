// A crash: a process crashes as it enters a window (or a server at a mark inside its step),
// losing its volatile context and keeping its durable one, and restarts after its delay. Every
// process and every server the design lets crash offers it; nothing needs declaring.
import fc from 'fast-check';
import { textField, type WindowFaultOf, type WindowKind } from '../faultKind.ts';
import type { ServerWindow } from '../faultWorld.ts';

export type CrashFault = WindowFaultOf<'crash'>;

/** A crash a search may choose: of a process as it rests, or of a server at a mark inside its step (`at`). */
export type CrashChoice = { readonly kind: 'crash'; readonly comp: number; readonly at?: ServerWindow };

/** A process's crash choice, made once: a search offers it in nearly every state. */
const resting: CrashChoice[] = [];

export const crash: WindowKind<CrashFault, CrashChoice> = {
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
  world: {
    rank: 2,
    insideStep: true,
    offer: (view, out) => {
      for (let i = 0; i < view.components; i++) if (view.liveProcess(i)) out.push((resting[i] ??= { kind: 'crash', comp: i }));
      view.serverCrashes(out as (CrashChoice & { at: ServerWindow })[]);
    },
    take: (ops, view, c) => {
      if (c.at !== undefined) return ops.crashInStep(c.comp, c.at);
      const window = view.windowOf(c.comp);
      ops.chosen({ kind: 'crash', window });
      ops.crash(c.comp, window);
    },
    // A process a skew or a restore at the same moment already brought down does not crash again.
    strike: (ops, i, window) => {
      if (ops.down(i)) return;
      ops.struck();
      ops.crash(i, window);
    },
    // A server's window is counted as its step reaches it, so its crash strikes the next one.
    entry: (view, c, entered) => {
      if (c.at !== undefined) return { kind: 'crash', window: c.at.window, occurrence: (entered.get(c.at.window) ?? 0) + c.at.nth };
      const window = view.windowOf(c.comp);
      return { kind: 'crash', window, occurrence: entered.get(window) ?? 1 };
    },
  },
};
