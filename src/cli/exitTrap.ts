// While a command runs, process.exit is not the scenario's to call: a scenario file that ends the
// process would otherwise pass for a clean run (exit code 0, nothing printed). The trap turns
// the call into an error thrown where it was made, so the loader or the command line reports
// which file did it and ends with exit code 2.
import { userFrame } from '../faults/userFault.ts';

export class ExitCalled extends Error {
  override readonly name = 'ExitCalled';
  constructor(readonly code: unknown) {
    super(`process.exit(${code === undefined ? '' : JSON.stringify(code)}) was called`);
  }

  /** One line: where the call was made, when that is a scenario file, and what it means. */
  describe(): string {
    const where = userFrame(this)?.where;
    return `${where === undefined ? 'a scenario' : where} called process.exit(${this.code === undefined ? '' : JSON.stringify(this.code)}); a scenario file must not end the process, so nothing it ran can be trusted`;
  }
}

/** Runs `body` with process.exit replaced by a function that throws ExitCalled. */
export async function withExitTrapped<T>(body: () => Promise<T>): Promise<T> {
  const real = process.exit;
  process.exit = ((code?: unknown) => {
    throw new ExitCalled(code);
  }) as typeof process.exit;
  try {
    return await body();
  } finally {
    process.exit = real;
  }
}
