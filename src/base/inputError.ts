// A mistake in what the user gave faultline: a malformed scenario, an unknown flag, a figure
// that is negative or not a number. The command line prints its message as one line and exits
// with code 2; anything else that escapes is a harness bug and keeps its stack trace.
export class InputError extends Error {
  override readonly name = 'InputError';

  /**
   * Recognised by its name: a user's scenario file is imported afresh (a watch run busts the
   * module cache), so the models it loads may throw an InputError of another copy of this module.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'InputError';
  }
}
