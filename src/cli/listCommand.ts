// `faultline list [<scenario|file|folder|pattern|all>…]`: the catalogue, or the scenarios named,
// with each scenario's expected verdict.
import { loadCatalogue, loadScenarios } from '../scenario/catalogue.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { expectedText } from '../report/verdictSummary.ts';
import { expectedAt } from '../scenario/scenario.ts';
import type { Command } from './command.ts';
import { loadOptions } from './loadOptions.ts';
import { styleFor, table } from './style.ts';

export const command: Command = {
  usage: 'list [<scenario|file|folder|pattern|all>…] [--json]',
  spec: {
    command: 'list',
    flags: { json: { type: 'boolean', help: 'print one JSON document: [{name, expect, title, file}]' } },
    positionals: { min: 0, max: Infinity, name: 'scenario names, files, folders, patterns or "all" (default: the catalogue)' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const entries = positionals.length === 0 ? await loadCatalogue() : await loadScenarios(positionals, loadOptions(io));
    const rows = entries.map(({ scenario: s, file }) => {
      const single = expectedAt(s.expect, 1);
      const pairs = expectedAt(s.expect, 2);
      return {
        name: s.name,
        expect: single.verdict,
        violations: single.verdict === 'violated' ? single.violations : [],
        ...('verdict' in s.expect ? {} : { pairs: { expect: pairs.verdict, violations: pairs.verdict === 'violated' ? pairs.violations : [] } }),
        title: s.title,
        file,
      };
    });
    if (values['json']) {
      io.out(JSON.stringify(rows));
      return 0;
    }
    const c = styleFor(io.colorLevel);
    const expectCell = (s: (typeof entries)[number]['scenario']) => {
      const single = expectedText(expectedAt(s.expect, 1));
      return 'verdict' in s.expect ? single : `${single}; pairs: ${expectedText(expectedAt(s.expect, 2))}`;
    };
    io.out(
      table([['scenario', 'expect', 'title'], ...entries.map(({ scenario: s }) => [s.name, expectCell(s), s.title])], (ri, ci, t) =>
        ri === 0 ? c.bold(t) : ci === 1 ? (t.startsWith('holds') ? c.green(t) : c.yellow(t)) : t,
      ),
    );
    io.out(`${rows.length} scenarios`);
    return 0;
  },
};
