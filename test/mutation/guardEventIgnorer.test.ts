// The mutation run leaves unplanted the event-type test of a guard its machine consults on that
// event alone (test/mutation/guardEventIgnorer.mjs says why). That reading is made from the source
// text, so it is held here to the machines as XState builds them: every guard whose test it skips
// is, in the built machine, on that event's transitions and on no other, nor on an eventless one.
// And it is held to the cases it must not skip. The source is parsed with Babel's parser, the
// parser Stryker itself uses to find mutants (installed with it).
import { parse } from '@babel/parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain module shared with the Stryker config, without type declarations.
import { guardEvents, whyIgnored } from './guardEventIgnorer.mjs';
// @ts-expect-error: a plain module shared with the Stryker config, without type declarations.
import { guardedModels } from './mutateList.mjs';

const root = join(import.meta.dirname, '..', '..');

type Node = { type: string; [key: string]: unknown };
type Path = { node: Node; parentPath: Path | null };
type Skipped = { guard: string; event: string; line: number };

/** Every node of `text` the ignorer skips, as the guard it sits in and the event it tests. */
function skipped(text: string): Skipped[] {
  const program = parse(text, { sourceType: 'module', plugins: ['typescript'] }).program as unknown as Node;
  const events = guardEvents(program);
  const out: Skipped[] = [];
  const visit = (node: unknown, parentPath: Path | null): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parentPath);
      return;
    }
    const n = node as Node;
    if (typeof n.type !== 'string') return;
    const path: Path = { node: n, parentPath };
    const why = whyIgnored(path, () => events) as string | undefined;
    if (why !== undefined) {
      const [, guard, event] = /the guard (\S+) is consulted on '([^']+)' alone/.exec(why)!;
      out.push({ guard: guard!, event: event!, line: (n['loc'] as { start: { line: number } }).start.line });
      return;
    }
    for (const key of Object.keys(n)) if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') visit(n[key], path);
  };
  visit(program, null);
  return out;
}

type StateNode = { transitions: Map<string, { guard?: unknown }[]>; always?: { guard?: unknown }[]; states: Record<string, StateNode> };

/** The event types (or `always`) of the built machine's transitions guarded by `name`. */
function guardedEvents(machine: { root: StateNode }, name: string): Set<string> {
  const found = new Set<string>();
  const named = (guard: unknown) => guard === name || (typeof guard === 'object' && guard !== null && (guard as { type?: unknown }).type === name);
  const visit = (node: StateNode): void => {
    for (const [type, list] of node.transitions) if (list.some((t) => named(t.guard))) found.add(type);
    if ((node.always ?? []).some((t) => named(t.guard))) found.add('always');
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  return found;
}

const models = guardedModels(root) as string[];

type Machine = { root: StateNode; implementations: { guards: Record<string, unknown> } };
const isMachine = (v: unknown): v is Machine => typeof v === 'object' && v !== null && 'root' in v && 'implementations' in v;

/** Every combination of a record's listed values. */
function combinations(choices: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  return Object.entries(choices).reduce<Record<string, unknown>[]>((acc, [key, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [key]: v }))), [{}]);
}

/**
 * The machines a model file builds: those it exports, and for the consumer, whose machine is built
 * per set of features, one for every combination it builds (a guard its default machine lacks is in some).
 */
function machinesOf(module: Record<string, unknown>): Machine[] {
  const machines = Object.values(module).filter(isMachine);
  const build = module['consumerMachineFor'];
  if (typeof build === 'function') {
    const bool = [false, true];
    const features = combinations({
      checkThenInsert: bool,
      localCache: bool,
      retry: [undefined, 'blocking', 'retryTopic'],
      parkKeys: bool,
      readsRetries: bool,
      deadLetter: bool,
      inbox: ['sameTx', 'separateTx', 'localCache', 'none'],
      ackFirst: bool,
    });
    // Some combinations are no consumer's (parked keys without a retry topic to hand over to): the
    // machine refuses them as it is built, and featuresOf never yields them.
    for (const f of features) {
      try {
        machines.push(build(f) as Machine);
      } catch {
        continue;
      }
    }
  }
  return machines;
}

describe('the guard event-type ignorer', () => {
  it.each(models)('%s: each guard whose type test it skips is, in the built machine, on that event alone', async (file) => {
    const found = skipped(readFileSync(join(root, file), 'utf8'));
    const machines = machinesOf((await import(join(root, file))) as Record<string, unknown>);
    for (const { guard, event, line } of found) {
      const events = new Set(machines.flatMap((m) => [...guardedEvents(m, guard)]));
      expect([...events], `${file}:${line}: ${guard}`).toEqual([event]);
    }
  });

  it('skips the type tests of the relay guards consulted on one event, and nothing else there', () => {
    const found = skipped(readFileSync(join(root, 'models/relay.ts'), 'utf8'));
    expect(found.map((s) => `${s.guard} ${s.event}`)).toEqual(['expectedAck broker.ack', 'markAnswer db.ran', 'markRefused db.ran']);
  });

  const machine = (guards: string, states: string) => `
    export const m = setup({
      guards: {
        ${guards}
      },
    }).createMachine({ initial: 'a', states: { ${states} } });`;

  it('skips a conjunct type test of a guard named, by name or by type, under its event alone', () => {
    const text = machine(
      `g: ({ context, event }) => event.type === 'x.done' && context.n > 0,
       h: ({ event }) => event.ok && 'y.done' === event.type,`,
      `a: { on: { 'x.done': [{ guard: 'g', target: 'b' }, { guard: 'g' }] } },
       b: { on: { 'y.done': { guard: { type: 'h' as const, params: {} }, target: 'a' } } },`,
    );
    expect(skipped(text).map((s) => `${s.guard} ${s.event}`)).toEqual(['g x.done', 'h y.done']);
  });

  it('plants every mutant of a guard that is the type test alone, since its `false` has no twin', () => {
    const text = machine(`g: ({ event }) => event.type === 'x.done',`, `a: { on: { 'x.done': { guard: 'g', target: 'a' } } },`);
    expect(skipped(text)).toEqual([]);
  });

  it('plants the type test of a guard consulted on another event too, on an eventless or delayed transition, or named elsewhere', () => {
    const guard = `g: ({ context, event }) => event.type === 'x.done' && context.n > 0,`;
    const cases = [
      `a: { on: { 'x.done': { guard: 'g' }, 'y.done': { guard: 'g' } } },`,
      `a: { on: { 'x.done': { guard: 'g' } }, always: { guard: 'g', target: 'b' } }, b: {},`,
      `a: { on: { 'x.done': { guard: 'g' } }, after: { 5: { guard: 'g', target: 'b' } } }, b: {},`,
      `a: { on: { 'x.done': { guard: 'g' } }, entry: enqueueActions(({ check }) => check('g')) },`,
      `a: { on: { 'y.done': { guard: 'g' } } },`,
      `a: {},`,
    ];
    for (const states of cases) expect(skipped(machine(guard, states)), states).toEqual([]);
  });

  it('plants a test of anything but the event type, or under `||`', () => {
    const text = machine(
      `g: ({ context, event }) => context.type === 'x.done' && event.n > 0,
       h: ({ context, event }) => event.type === 'x.done' || context.n > 0,`,
      `a: { on: { 'x.done': [{ guard: 'g' }, { guard: 'h' }] } },`,
    );
    expect(skipped(text)).toEqual([]);
  });
});
