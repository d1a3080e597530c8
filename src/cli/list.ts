// `faultline list`: the catalogue, with each scenario's expected verdict.
import { parseFlags, type CliIo } from '../cli.ts';
import { loadCatalogue } from '../catalogue.ts';
import { InputError } from '../inputError.ts';
import { styleFor, table } from './style.ts';

export async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, { json: { type: 'boolean' } }, 'list');
  if (positionals.length > 0) throw new InputError(`list takes no arguments, got ${positionals.join(' ')}`);
  const entries = await loadCatalogue();
  const rows = entries.map(({ scenario: s, file }) => ({
    name: s.name,
    expect: s.expect.verdict,
    violations: s.expect.verdict === 'violated' ? s.expect.violations : [],
    title: s.title,
    file,
  }));
  if (values.json) {
    io.out(JSON.stringify(rows));
    return 0;
  }
  const c = styleFor(io.isTTY);
  io.out(
    table([['scenario', 'expect', 'title'], ...rows.map((r) => [r.name, r.expect === 'holds' ? 'holds' : `violated (${r.violations.join(', ')})`, r.title])], (ri, ci, t) =>
      ri === 0 ? c.bold(t) : ci === 1 ? (t.startsWith('holds') ? c.green(t) : c.yellow(t)) : t,
    ),
  );
  io.out(`${rows.length} scenarios`);
  return 0;
}
