// The source may only get simpler. Read with TypeScript's parser (test/tidy/sourceShape.ts): every
// file of src/ in a layer folder, no import from a higher layer beyond the ones listed below, no
// import cycle in src/ or models/ beyond the ones listed, none of those growing, and no function
// over 70 lines beyond the ones listed, none of those growing. Breaking a cycle or
// shortening a function shrinks the lists; the test then says which entry to take out, so the
// baseline never keeps a pass it no longer needs.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cycles, functionLengths, importGraph, layerOf, sourceFiles, upwardImports } from './sourceShape.ts';

const root = join(import.meta.dirname, '..', '..');
const files = [...sourceFiles(root, 'src'), ...sourceFiles(root, 'models')];

/** The import cycles the source has today, type-only imports included; none may grow, and no new one may start. */
const CYCLES: readonly (readonly string[])[] = [];

/**
 * The layers of the source, lowest first: a file may import from its own layer and the ones
 * below it, never from one above. `models` are the design parts users compose; `top` is the
 * package's entry points (src/index.ts, src/vitest.ts).
 */
const LAYERS = ['base', 'capacity', 'faults', 'kernel', 'checkers', 'scenario', 'models', 'run', 'analysis', 'modes', 'report', 'sweep', 'cli', 'top'] as const;

/** The upward imports the source has today; none may be added. */
const UPWARD: readonly string[] = [];

/** The functions over 70 lines today, with their length: none may grow, and no other may pass 70. */
const LONG: Readonly<Record<string, number>> = {};

describe('the shape of the source', () => {
  it('has no import cycle beyond the listed ones, and none of those grew', () => {
    const found = cycles(importGraph(root, files));
    const outside = found.filter((c) => !CYCLES.some((b) => c.every((f) => b.includes(f))));
    expect(outside, 'new or grown import cycles').toEqual([]);
    const gone = CYCLES.filter((b) => !found.some((c) => c.length === b.length && c.every((f) => b.includes(f))));
    expect(gone, 'cycles broken or shrunk: take them out of CYCLES (or list what is left)').toEqual([]);
  });

  it('keeps every file in a layer, and imports only from its own layer or lower ones, beyond the listed exceptions', () => {
    expect(files.filter((f) => !(LAYERS as readonly string[]).includes(layerOf(f))), 'files outside every layer').toEqual([]);
    const found = upwardImports(importGraph(root, files), LAYERS);
    expect(found.filter((e) => !UPWARD.includes(e)), 'new upward imports').toEqual([]);
    expect(UPWARD.filter((e) => !found.includes(e)), 'upward imports gone: take them out of UPWARD').toEqual([]);
  });

  it('has no function over 70 lines beyond the listed ones, and none of those grew', () => {
    const long = new Map<string, number>(files.flatMap((f) => functionLengths(root, f).filter((x) => x.lines > 70).map((x) => [`${f} ${x.name}`, x.lines] as const)));
    const over = [...long].filter(([name, lines]) => lines > (LONG[name] ?? 70)).map(([name, lines]) => `${name}: ${lines} lines`);
    expect(over, 'functions over 70 lines, or longer than listed').toEqual([]);
    const shorter = Object.keys(LONG).filter((name) => !long.has(name) || long.get(name)! < LONG[name]!);
    expect(shorter, 'functions now shorter: lower or take out their entries').toEqual([]);
  });

  it('finds a cycle and a long function where there is one (the reader itself is right)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['a']]]))).toEqual([['a']]);
    expect(upwardImports(new Map([['src/base/a.ts', ['src/kernel/b.ts']], ['src/kernel/b.ts', ['src/base/a.ts']], ['models/m.ts', ['src/kernel/b.ts']]]), LAYERS)).toEqual(['src/base/a.ts -> src/kernel/b.ts']);
    expect([layerOf('src/index.ts'), layerOf('src/kernel/kernel.ts'), layerOf('src/modes/check/check.ts'), layerOf('models/relay.ts')]).toEqual(['top', 'kernel', 'modes', 'models']);
    expect(functionLengths(root, 'test/tidy/sourceShape.ts').find((f) => f.name === 'cycles')!.lines).toBeGreaterThan(20);
  });
});
