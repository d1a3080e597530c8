// `faultline init [name] [--dir DIR]`: scaffolds a design of the user's own in their repository:
// a scenario file (the Mercury outbox pipeline with an at-most-once relay, to be edited into
// theirs) and a vitest test that gates on its verdict in CI. It never overwrites a file.
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeFsError } from '../fsError.ts';
import { InputError } from '../inputError.ts';
import { makeDirs } from '../makeDirs.ts';
import { parseArgv } from '../parseArgv.ts';
import type { Command } from './command.ts';
import { text } from './flagValues.ts';

const NAME = /^[a-z0-9][a-z0-9-]*$/;

export function scenarioTemplate(name: string): string {
  return `// ${name}: our design, checked by faultline at every failure window. Edit the components,
// the workload, the claim and the verdict you expect; \`npx faultline windows ${name}.ts\` runs it.
import { defineScenario } from 'faultline';
import { orderPipeline, reservationClaim } from 'faultline/models/designs/orderPipeline';

export default defineScenario({
  name: '${name}',
  title: 'Our relay marks rows published before it sends them',
  source: 'our design review',
  lesson: 'Marking progress before the send turns a crash between the two into a lost event.',
  build: orderPipeline({ design: 'outbox', relay: { mark: 'beforeSend' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});
`;
}

export function testTemplate(name: string): string {
  return `// Gates ${name} in CI: its verdict must stay the one the scenario expects.
import { describe, expect, it } from 'vitest';
import { explore, replayLine, runWindows } from 'faultline';
import design from './${name}.js';

describe('${name}', () => {
  // Both sweeps take seconds, longer than vitest's default five on a busy machine.
  it('has the verdict it expects at every failure window', () => {
    const result = runWindows(design);
    const unexpected = result.counterexamples.filter((c) => result.judgement.unexpected.includes(c.violation));
    expect(unexpected.map((c) => replayLine(c.replay))).toEqual([]);
    expect(result.judgement.asExpected).toBe(true);
  }, 60_000);

  it('has the same verdict under a random search of fault plans', () => {
    expect(explore(design, { runs: 200 }).judgement.asExpected).toBe(true);
  }, 60_000);
});
`;
}

export const command: Command = {
  usage: 'init [name] [--dir DIR]',
  spec: {
    command: 'init',
    flags: { dir: { type: 'string', value: 'DIR', help: 'the folder to write into (default: the working folder)' } },
    positionals: { min: 0, max: 1, name: 'scenario name' },
  },
  run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const name = positionals[0] ?? 'my-design';
    if (!NAME.test(name) || name.length > 100) throw new InputError(`init: the name must be lower-case words joined by '-' (at most 100 characters), got ${JSON.stringify(name)}`);
    const dir = text(values['dir']) ?? '.';
    const files = [
      [join(dir, `${name}.ts`), scenarioTemplate(name)],
      [join(dir, `${name}.test.ts`), testTemplate(name)],
    ] as const;
    const taken = files.filter(([path]) => existsSync(path)).map(([path]) => path);
    if (taken.length > 0) throw new InputError(`init: ${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}; nothing was written (choose another name or --dir)`);
    try {
      makeDirs(dir);
      // 'wx' refuses a file that appeared since the check rather than overwrite it.
      for (const [path, content] of files) writeFileSync(path, content, { encoding: 'utf8', flag: 'wx' });
    } catch (error) {
      throw new InputError(`init: cannot write into ${dir}: ${describeFsError(error) ?? String(error)}`);
    }
    for (const [path] of files) io.out(`wrote ${relative(process.cwd(), path) || path}`);
    io.out(`next: npx faultline windows ${relative(process.cwd(), files[0][0])}   (and npx vitest run ${relative(process.cwd(), files[1][0])})`);
    return 0;
  },
};
