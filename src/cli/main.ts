// The faultline command line: finds the command, parses its arguments, runs it and maps the
// outcome to an exit code (0 every verdict as expected, 1 an unexpected verdict, 2 bad input or
// usage, 3 an inconclusive search and nothing unexpected). Bad input is one line on stderr, never a stack trace; anything else that escapes is a
// harness bug and keeps its stack, unless it was thrown from a user's scenario file (their
// build(), observer or describer), which is their mistake and gets one line naming their file
// and line. The command table is static and each command is loaded only when it runs, so
// `--version` and `--help` load nothing but this file and the few it imports.
import { readFileSync } from 'node:fs';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import { flagHelp, refuseUnknownFlags } from '../base/parseArgv.ts';
import { describeUserFault } from '../faults/userFault.ts';
import type { Command } from './command.ts';
import { ExitCalled, withExitTrapped } from './exitTrap.ts';
import { processIo, type CliIo } from './io.ts';

interface Entry {
  readonly summary: string;
  readonly load: () => Promise<{ readonly command: Command }>;
}

/** Every command, in the order help lists them. */
const COMMANDS: Readonly<Record<string, Entry>> = {
  list: { summary: 'scenarios, with their expected verdicts', load: () => import('./listCommand.ts') },
  windows: { summary: 'crash every failure window, fault every message point; write reports', load: () => import('./windowsCommand.ts') },
  explore: { summary: 'search fault plans and interleavings with fast-check; shrink a failure', load: () => import('./exploreCommand.ts') },
  check: { summary: 'every interleaving with up to K faults, by state-space search; write reports', load: () => import('./checkCommand.ts') },
  replay: { summary: 'rerun one plan or choice path exactly: the verdict and the steps about its key (--trace: every event)', load: () => import('./replayCommand.ts') },
  merge: { summary: 'join the parts of a sharded sweep into the result of one run', load: () => import('./mergeCommand.ts') },
  record: { summary: 'a decision record of the delivery guarantee each flow has, filled from scenarios and their verdicts', load: () => import('./recordCommand.ts') },
  calc: { summary: 'capacity arithmetic: checkpoint, dedup, backfill, retry, horizon', load: () => import('./calcCommand.ts') },
  init: { summary: 'write a scenario file and a vitest test for your own design, or its decision record', load: () => import('./initCommand.ts') },
  schema: { summary: 'the JSON Schema of a scenario, a decision record or a design part’s options', load: () => import('./schemaCommand.ts') },
};

/** The command names, in the order help lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** A command by name, loaded. */
export async function loadCommand(name: string): Promise<Command> {
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) throw new Error(`no command ${name}`);
  return (await entry.load()).command;
}

export const USAGE = `faultline: crash every failure window of an event-delivery design and check its claims

Usage:
  faultline list [<scenario|file|folder|pattern|all>…] [--json]
  faultline windows <scenario|file|folder|pattern|all>… [--json] [--out DIR] [--reporter|--format LIST] [--pairs] [--only PLACE] [--seed S] [--max-occurrence N] [--fail-fast] [--watch] [--workers N] [--shard i/n]
  faultline explore <scenario|file|folder|pattern|all>… [--runs N] [--seed S] [--max-faults N] [--max-occurrence N] [--json] [--workers N] [--shard i/n [--out DIR]]
  faultline check <scenario|file|folder|pattern|all>… [--faults K] [--kinds LIST] [--size N] [--max-states N] [--max-depth N] [--dfs] [--no-reduction] [--full | --fail-fast] [--world-latency] [--json] [--out DIR] [--reporter|--format LIST] [--watch] [--workers N] [--shard i/n]
  faultline merge <part folder|part file>… [--out DIR] [--reporter|--format LIST] [--json]
  faultline replay <scenario|file> --seed S [--path P [--max-faults N] [--max-occurrence N] | --plan JSON [--size N]] [--trace] [--json]
  faultline replay <scenario|file> --faults K --choices PATH [--kinds LIST] [--world-latency] [--size N] [--trace] [--json]
  faultline record <scenario|file|dir|all> [--out DIR]
  faultline calc <checkpoint|dedup|backfill|retry|horizon> [--flags] [--json]
  faultline init [name] [--dir DIR] [--record]
  faultline schema [name] [--out DIR]
  faultline <command> --help
  faultline --help | --version

Commands:
${Object.entries(COMMANDS)
  .map(([name, e]) => `  ${name.padEnd(8)} ${e.summary}`)
  .join('\n')}

Exit codes: 0 every verdict as expected; 1 a verdict differs from its expectation;
2 bad input or usage; 3 a search was inconclusive (it decided nothing) and nothing else differs.`;

export function version(): string {
  // Two folders up in the sources (src/cli/), three in the compiled package (dist/src/cli/).
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'faultline' && pkg.version) return pkg.version;
    } catch {
      // Not this folder: try the next.
    }
  }
  return 'unknown';
}

/** A command's own help: its usage line and every flag it takes. */
export function commandHelp(name: string, command: Command): string {
  return [`Usage: faultline ${command.usage}`, '', COMMANDS[name]?.summary ?? '', '', 'Flags:', ...flagHelp(command.spec, [['--help', 'this text']])].join('\n');
}

/** The words that ask for help in place of a command. */
const HELP: ReadonlySet<string> = new Set(['--help', '-h', 'help']);

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      // Usage is what was asked for wrong: the line on stderr says so, the text follows on stdout.
      io.err('faultline: no command given (try faultline --help)');
      io.out(USAGE);
      return 2;
    }
    if (HELP.has(name)) {
      // `faultline help windows` is `faultline windows --help`; help of help, or of a flag, is the usage.
      const topic = rest[0];
      if (topic !== undefined && !HELP.has(topic) && !topic.startsWith('-')) return await main([topic, '--help', ...rest.slice(1)], io);
      io.out(USAGE);
      return 0;
    }
    if (name === '--version' || name === '-v') {
      if (rest.length > 0) throw new InputError(`${name} takes nothing after it, got ${JSON.stringify(rest.join(' '))}`);
      io.out(version());
      return 0;
    }
    const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!entry) {
      const known = Object.keys(COMMANDS);
      throw new InputError(name.startsWith('-') ? `unknown flag ${name} (try faultline --help)` : `unknown command ${name}${didYouMean(name, known)} (try faultline --help)`);
    }
    const { command } = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      if (command.help === undefined) refuseUnknownFlags(rest, command.spec);
      io.out(command.help?.(rest) ?? commandHelp(name, command));
      return 0;
    }
    return await withExitTrapped(async () => command.run(rest, io));
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`faultline: ${error.message.split('\n')[0]}`);
      return 2;
    }
    if (error instanceof ExitCalled) {
      io.err(`faultline: ${error.describe()}`);
      return 2;
    }
    const fault = describeUserFault(error);
    if (fault !== undefined) {
      io.err(`faultline: ${fault}`);
      return 2;
    }
    throw error;
  }
}
