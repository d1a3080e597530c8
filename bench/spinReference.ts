// The model checker's side of the five-verdict comparison, measured here rather than quoted:
// SPIN's wall time for the five Mercury verdicts on bench/spin/mercury.pml (spin -a, gcc and
// pan per design), for the benchmark to set against faultline's time in the same run. Without
// spin or gcc it says why instead of giving a figure, so the benchmark can still run.
import { runSpinDesigns, spinAvailable, type SpinOptions, type SpinResult } from './spin/runSpin.ts';

export type SpinReference =
  | {
      readonly measured: true;
      /** End to end: generating, compiling and searching all five designs. */
      readonly seconds: number;
      /** The searches alone (./pan), without generating and compiling the verifiers. */
      readonly searchSeconds: number;
      readonly results: readonly SpinResult[];
    }
  | { readonly measured: false; readonly reason: string };

/** SPIN on the five designs, by default as the faultline scenarios run them: 2 orders, one crash, gcc -O2. */
export function spinReference(options: Partial<Omit<SpinOptions, 'design'>> = {}): SpinReference {
  if (!spinAvailable()) return { measured: false, reason: 'spin or gcc is not on PATH (apt-get install -y spin gcc)' };
  const results = runSpinDesigns({ orders: 2, crashes: 1, opt: 'O2', ...options });
  const sum = (f: (r: SpinResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return { measured: true, seconds: sum((r) => r.seconds.total), searchSeconds: sum((r) => r.seconds.search), results };
}
