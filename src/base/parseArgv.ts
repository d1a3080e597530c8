// The one argument parser of the command line, for every command and `calc` subcommand alike,
// so every command refuses the same mistakes the same way: a flag it does not know (naming the
// nearest one it does), a flag given twice, a flag without its value, a value given to a switch,
// a stray word, a missing required flag. Each refusal is one InputError line (exit code 2).
// A value may look like a negative number (`--runs -5`): it is taken as the value, so the
// figure's own check can refuse it by value rather than as an unknown flag.
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';

export interface FlagSpec {
  /** `string` takes a value; `boolean` is a switch. */
  readonly type: 'string' | 'boolean';
  readonly required?: boolean;
  /** The placeholder of the value in help text (`N`, `DIR`). */
  readonly value?: string;
  /** One line of help. */
  readonly help: string;
}

export interface ArgvSpec {
  /** How the command is named in messages: `windows`, `calc dedup`. */
  readonly command: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** How many positional arguments the command takes, and what they are called in messages. */
  readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
}

export interface ParsedArgv {
  readonly values: Readonly<Record<string, string | true | undefined>>;
  readonly positionals: readonly string[];
}

const NEGATIVE_NUMBER = /^-\d/;

export function parseArgv(args: readonly string[], spec: ArgvSpec): ParsedArgv {
  const fail = (what: string): never => {
    throw new InputError(`${spec.command}: ${what}`);
  };
  const known = Object.keys(spec.flags);
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-' || NEGATIVE_NUMBER.test(token)) {
      positionals.push(token);
      continue;
    }
    if (!token.startsWith('--')) fail(`unknown flag ${token}${didYouMean(token.replace(/^-+/, ''), known).replace(/mean (\S+)\?/, 'mean --$1?')}`);
    const eq = token.indexOf('=');
    const name = eq < 0 ? token.slice(2) : token.slice(2, eq);
    const flag = spec.flags[name];
    if (!flag) {
      const near = didYouMean(name, known);
      fail(`unknown flag --${name}${near.replace(/mean (\S+)\?/, 'mean --$1?')}; known flags: ${known.map((f) => `--${f}`).join(', ') || 'none'}`);
    }
    if (Object.hasOwn(values, name)) fail(`--${name} is given more than once`);
    if (flag!.type === 'boolean') {
      if (eq >= 0) fail(`--${name} is a switch and takes no value, got ${JSON.stringify(token)}`);
      values[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = token.slice(eq + 1);
    else {
      value = args[i + 1];
      // A following "--x" is the next flag, not a value; "-5" is a value refused later by its own check.
      if (value !== undefined && value.startsWith('-') && !NEGATIVE_NUMBER.test(value) && value !== '-') value = undefined;
      else i++;
    }
    if (value === undefined || value === '') fail(`--${name} needs a value`);
    values[name] = value!;
  }
  const p = spec.positionals;
  if (positionals.length < p.min || positionals.length > p.max) {
    const extra = positionals.length > p.max ? `; unexpected argument ${JSON.stringify(positionals[p.max])}` : '';
    const count = p.min === p.max ? `${p.min === 0 ? 'no' : p.min === 1 ? 'one' : p.min} ${p.name}` : p.max === Infinity ? `at least ${p.min === 1 ? 'one' : p.min}: ${p.name}` : `${p.min} to ${p.max} ${p.name}`;
    fail(`takes ${count}${extra}`);
  }
  const missing = known.filter((f) => spec.flags[f]!.required && values[f] === undefined);
  if (missing.length > 0) fail(`missing required ${missing.map((f) => `--${f}`).join(', ')}`);
  return { values, positionals };
}

/** The flags of a command as help lines: `  --runs N   how many plans to try`. */
export function flagHelp(spec: ArgvSpec, extra: readonly (readonly [string, string])[] = []): string[] {
  // Flags every command takes (--help) come in as `extra`, so their help lines up with the rest.
  const rows = [...Object.entries(spec.flags).map(([name, f]) => [`--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`, `${f.help}${f.required ? ' (required)' : ''}`] as const), ...extra];
  const width = Math.max(0, ...rows.map(([l]) => l.length));
  return rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`);
}

/**
 * Refuses a flag the command does not know among arguments that also ask for help, so
 * `windows --bogus --help` is the same mistake as `windows --bogus`: asking for help does not
 * make a misspelt flag right. Only the flags are looked at; a missing argument is not a mistake
 * when help is what was asked for.
 */
export function refuseUnknownFlags(args: readonly string[], spec: ArgvSpec): void {
  const flags: Record<string, FlagSpec> = { ...spec.flags, help: { type: 'boolean', help: '' } };
  for (const name of Object.keys(flags)) if (flags[name]!.required) flags[name] = { ...flags[name]!, required: false };
  const asked = args.map((a) => (a === '-h' ? '--help' : a)).filter((a, i, all) => a !== '--help' || all.indexOf('--help') === i);
  parseArgv(asked, { ...spec, flags, positionals: { min: 0, max: Infinity, name: spec.positionals.name } });
}
