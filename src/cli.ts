// The faultline command line: parses arguments, runs a command, prints its result and maps
// outcomes to exit codes (0 every verdict as expected, 1 an unexpected verdict, 2 bad input or
// usage). Bad input is one line on stderr, never a stack trace; anything else that escapes is a
// harness bug and keeps its stack.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from './inputError.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes to stderr as is (no newline added): a progress line that redraws itself. */
  progress(text: string): void;
  readonly isTTY: boolean;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  progress: (text) => process.stderr.write(text),
  get isTTY() {
    return Boolean(process.stdout.isTTY);
  },
};

export const USAGE = `faultline: crash every failure window of an event-delivery design and check its claims

Usage:
  faultline list [--json]                                   scenarios, with their expected verdicts
  faultline windows <scenario|file|all> [--json] [--out DIR] [--pairs] [--seed S] [--max-occurrence N]
  faultline explore <scenario|file> [--runs N] [--seed S] [--json]
  faultline replay <scenario|file> --seed S [--path P] [--json]
  faultline calc <checkpoint|dedup|backfill|retry|horizon> [--flags] [--json]
  faultline --help | --version

Exit codes: 0 every verdict as expected; 1 a verdict differs from its expectation;
2 bad input or usage.`;

export type Command = (args: string[], io: CliIo) => Promise<number> | number;

const commands = new Map<string, Command>();

/** Commands register themselves here; the table is the single source of what `main` accepts. */
export function registerCommand(name: string, command: Command): void {
  commands.set(name, command);
}

/** `util.parseArgs` in strict mode: an unknown flag or a missing value becomes an InputError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, command: string) {
  // `--runs -5` is a negative figure, not a flag: join it so the figure's own check refuses it.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    const name = a.startsWith('--') ? a.slice(2) : '';
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${a}=${next}`);
      i++;
    } else joined.push(a);
  }
  args = joined;
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError(`${command}: ${message?.replace(/\. To specify .*$/, '')}`);
  }
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  await import('./commands.ts');
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.out(USAGE);
      return name === undefined ? 2 : 0;
    }
    if (name === '--version' || name === '-v') {
      io.out(version());
      return 0;
    }
    const command = commands.get(name);
    if (!command) {
      throw new InputError(name.startsWith('-') ? `unknown flag ${name} (try faultline --help)` : `unknown command ${name} (try faultline --help)`);
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(USAGE);
      return 0;
    }
    return await command(rest, io);
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`faultline: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
