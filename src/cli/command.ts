// The shape of one command of the command line: its arguments (read by the one parser of
// src/base/parseArgv.ts, and listed by its own `--help`) and what it does with them. A command
// returns its exit code: 0 every verdict as expected, 1 an unexpected verdict; bad input is an
// InputError, which the command line turns into one line on stderr and exit code 2.
import type { ArgvSpec } from '../base/parseArgv.ts';
import type { CliIo } from './io.ts';

export interface Command {
  /** The usage line after `faultline `: `windows <scenario|file|all> [flags]`. */
  readonly usage: string;
  readonly spec: ArgvSpec;
  run(args: readonly string[], io: CliIo): Promise<number> | number;
  /** Help that depends on the arguments (`calc dedup --help` lists dedup's flags). */
  help?(args: readonly string[]): string | undefined;
}
