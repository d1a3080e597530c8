// `faultline calc <checkpoint|dedup|backfill|retry|horizon> …`: the capacity arithmetic.
import type { CliIo } from '../cli.ts';
import { runCalc } from '../capacity/runCalc.ts';

export function calcCommand(args: string[], io: CliIo): number {
  const json = args.includes('--json');
  const result = runCalc(args.filter((a) => a !== '--json'));
  io.out(json ? JSON.stringify(result.json) : result.text);
  return 0;
}
