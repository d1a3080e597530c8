// `faultline init [name] [--dir DIR] [--record]`: scaffolds a design of the user's own in their
// repository: a scenario file (the Mercury outbox pipeline with an at-most-once relay, to be
// edited into theirs) and a vitest test that gates on its verdict in CI; with `--record`, the
// decision record (`record.ts`) that documents it, citing a scenario the folder holds (the one
// named, or its only one) and that scenario's claim, so the record fills as written. Each file is written from its input's schema
// (src/cli/startingFile.ts): every field there is, after what it is, those with defaults
// commented out, so nothing a user could set has to be looked up. It never overwrites a file.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadScenarios, RECORD_FILE, scenarioRefs } from '../scenario/catalogue.ts';
import { didYouMean } from '../base/nearest.ts';
import { loadOptions } from './loadOptions.ts';
import { describeFsError } from '../base/fsError.ts';
import { InputError } from '../base/inputError.ts';
import { makeDirs } from '../base/makeDirs.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { RecordSpecSchema } from '../scenario/recordSpec.ts';
import { ScenarioSchema } from '../scenario/scenarioSchema.ts';
import type { Command } from './command.ts';
import { text } from './flagValues.ts';
import { objectLines } from './startingFile.ts';

const NAME = /^[a-z0-9][a-z0-9-]*$/;

export function scenarioTemplate(name: string): string {
  const fields = objectLines(ScenarioSchema, {
    name: `'${name}'`,
    title: "'Our relay marks rows published before it sends them'",
    source: "'our design review'",
    lesson: "'Marking progress before the send turns a crash between the two into a lost event.'",
    build: "orderPipeline({ design: 'outbox', relay: { mark: 'beforeSend' } })",
    workload: { size: '2' },
    claims: ['reservationClaim'],
    expect: "{ verdict: 'violated', violations: ['lost effect'] }",
    record: `// record: { ... }, (or a ${RECORD_FILE} beside this file: faultline init --record writes one)`,
  }, '  ');
  return `// ${name}: our design, checked by faultline at every failure window. Every field a scenario
// takes is here, after what it is; those commented out keep their defaults. Edit the design, the
// workload, the claim and the verdict you expect; \`npx faultline windows ${name}.ts\` runs it.
import { defineScenario } from 'faultline';
import { orderPipeline, reservationClaim } from 'faultline/models/designs/orderPipeline';

export default defineScenario({
${fields.join('\n')}
});
`;
}

/** The decision record of a folder whose scenario `name` is: every field, its one flow measured by the scenario's claim `claim`. */
export function recordTemplate(name: string, claim = 'inventory reservation'): string {
  const backed = (choice: string) => ({ choice: `'${choice}'`, scenario: `'${name}'` });
  const fields = objectLines(RecordSpecSchema, {
    document: { id: "'EVT-REC-001'", broker: "'our broker'", version: "'0.1'", status: "'Draft'", owner: "'@platform-team'", producerTeams: ["'@orders-team'"], consumerTeams: ["'@inventory-team'"] },
    flows: [
      {
        id: "'EV-01'",
        event: "'order.accepted'",
        producer: "'Orders'",
        consumer: "'Inventory'",
        lost: "'An order ships without its stock reserved'",
        duplicated: "'Stock reserved twice'",
        semantics: "'effectively-once'",
        how: "'at-least-once delivery, an inbox in the reservation’s transaction'",
        technique: "'dedup table'",
        scenario: `'${name}'`,
        claim: `'${claim.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`,
      },
    ],
    outbox: { relay: backed('Polling publisher, progress recorded before the send'), eventId: backed('Assigned in the business transaction'), ordering: { choice: "'Per aggregate'" }, cleanup: { choice: "'Delete published rows after 3 days'" }, eventsPerDay: '1_000_000' },
    rules: [],
    limits: [],
    monitoring: [],
    decisions: [],
  }, '  ');
  return `// The decision record of the designs in this folder: \`npx faultline record <this folder>\` fills it
// from their measured verdicts. Every field a record takes is here, after what it is; those
// commented out are optional. A row that names a scenario is measured by its run; one that names
// none is an open item.
import { defineRecord } from 'faultline';

export default defineRecord({
${fields.join('\n')}
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

/**
 * The scenario of `dir` a new record cites, and the claim its flow is measured by: the one
 * named, or the folder's only scenario. A record that cites a scenario the folder does not hold
 * would fail the first `faultline record`, so the folder must hold it.
 */
async function citedScenario(dir: string, asked: string | undefined): Promise<{ readonly name: string; readonly claim?: string }> {
  const write = `faultline init <name> --dir ${dir} writes one`;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`init --record: ${dir} is not a folder; the record goes beside the scenarios it cites (${write})`);
  try {
    scenarioRefs([dir]);
  } catch (error) {
    if (error instanceof InputError && /holds no scenario/.test(error.message)) throw new InputError(`init --record: ${dir} holds no scenario for the record to cite (${write})`);
    throw error;
  }
  // Modules the folder's scenarios share are skipped without a word: init runs nothing, and a refusal stays one line.
  const scenarios = (await loadScenarios([dir], loadOptions())).map((e) => e.scenario);
  const names = scenarios.map((s) => s.name);
  const scenario = asked === undefined ? (scenarios.length === 1 ? scenarios[0] : undefined) : scenarios.find((s) => s.name === asked);
  if (scenario === undefined && asked === undefined) throw new InputError(`init --record: ${dir} holds ${scenarios.length} scenarios; name the one the record cites (${names.join(', ')})`);
  if (scenario === undefined) throw new InputError(`init --record: ${dir} holds no scenario ${asked}${didYouMean(asked!, names)}; its scenarios: ${names.join(', ')}`);
  return { name: scenario.name, ...(scenario.claims[0] === undefined ? {} : { claim: scenario.claims[0].effect }) };
}

export const command: Command = {
  usage: 'init [name] [--dir DIR] [--record]',
  spec: {
    command: 'init',
    flags: {
      dir: { type: 'string', value: 'DIR', help: 'the folder to write into (default: the working folder)' },
      record: { type: 'boolean', help: `write the folder's decision record (${RECORD_FILE}) for a scenario it holds (the one named, or its only one), instead of a scenario and its test` },
    },
    positionals: { min: 0, max: 1, name: 'scenario name' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const asked = positionals[0];
    if (asked !== undefined && (!NAME.test(asked) || asked.length > 100)) throw new InputError(`init: the name must be lower-case words joined by '-' (at most 100 characters), got ${JSON.stringify(asked)}`);
    const dir = text(values['dir']) ?? '.';
    const cited = values['record'] === true ? await citedScenario(dir, asked) : undefined;
    const name = cited?.name ?? asked ?? 'my-design';
    const files: readonly (readonly [string, string])[] =
      cited !== undefined
        ? [[join(dir, RECORD_FILE), recordTemplate(cited.name, cited.claim)]]
        : [
            [join(dir, `${name}.ts`), scenarioTemplate(name)],
            [join(dir, `${name}.test.ts`), testTemplate(name)],
          ];
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
    const first = relative(process.cwd(), files[0]![0]) || files[0]![0];
    if (values['record'] === true) io.out(`next: npx faultline record ${relative(process.cwd(), dir) || '.'}   (it runs ${name} and fills the record from its verdict)`);
    else io.out(`next: npx faultline windows ${first}   (and npx vitest run ${relative(process.cwd(), files[1]![0])})`);
    return 0;
  },
};
