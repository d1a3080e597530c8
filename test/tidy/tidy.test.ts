// The source may only get simpler. Read with TypeScript's parser (test/tidy/sourceShape.ts): no
// import cycle in src/ or models/ beyond the ones listed below, none of those growing, and no
// function over 70 lines beyond the ones listed, none of those growing. Breaking a cycle or
// shortening a function shrinks the lists; the test then says which entry to take out, so the
// baseline never keeps a pass it no longer needs.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cycles, functionLengths, importGraph, sourceFiles } from './sourceShape.ts';

const root = join(import.meta.dirname, '..', '..');
const files = [...sourceFiles(root, 'src'), ...sourceFiles(root, 'models')];

/** The import cycles the source has today, type-only imports included; none may grow, and no new one may start. */
const CYCLES: readonly (readonly string[])[] = [
  // The scenario, its claims, the World and the kernel read one another's types.
  ['src/check/transitionCache.ts', 'src/checkers/clause.ts', 'src/claimFacts.ts', 'src/claimProbe.ts', 'src/claims.ts', 'src/designIndex.ts', 'src/kernel/brokenSessions.ts', 'src/kernel/kernel.ts', 'src/resumePoints.ts', 'src/scenario.ts', 'src/scenarioSchema.ts', 'src/verdict.ts', 'src/wiring.ts', 'src/world.ts', 'src/worldView.ts'],
  ['src/compiledMachine.ts', 'src/stepper.ts'],
  ['src/report/foldSteps.ts', 'src/report/keyFocus.ts', 'src/report/sequenceSteps.ts'],
  ['src/windowRow.ts', 'src/windows.ts', 'src/windowsPart.ts'],
];

/** The functions over 70 lines today, with their length: none may grow, and no other may pass 70. */
const LONG: Readonly<Record<string, number>> = {
  'src/capacity/checkpoint.ts checkpointReplay': 72,
  'src/capacity/checkpoint.ts describeCheckpoint': 80,
  'src/check/check.ts search': 355,
  'src/check/check.ts expand': 105,
  'src/check/stateHash.ts hashInto': 75,
  'src/replay.ts replay': 83,
  'src/report/decisionRecord.ts buildDecisionRecord': 564,
  'src/retryObservation.ts observeRetry': 130,
  'models/consumer.ts configFor': 126,
  'models/database.ts step': 101,
};

describe('the shape of the source', () => {
  it('has no import cycle beyond the listed ones, and none of those grew', () => {
    const found = cycles(importGraph(root, files));
    const outside = found.filter((c) => !CYCLES.some((b) => c.every((f) => b.includes(f))));
    expect(outside, 'new or grown import cycles').toEqual([]);
    const gone = CYCLES.filter((b) => !found.some((c) => c.length === b.length && c.every((f) => b.includes(f))));
    expect(gone, 'cycles broken or shrunk: take them out of CYCLES (or list what is left)').toEqual([]);
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
    expect(functionLengths(root, 'test/tidy/sourceShape.ts').find((f) => f.name === 'cycles')!.lines).toBeGreaterThan(20);
  });
});
