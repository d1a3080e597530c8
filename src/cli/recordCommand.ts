// `faultline record <scenario|file|dir|all>`: seed 004's decision record filled from record
// metadata and the measured verdicts of the scenarios it cites. Each cited scenario runs in
// windows mode; the record (record.md, record.html) and the failure-window reports it links to
// are written to --out (reports/record by default) as one set swapped into place, as windows
// writes its reports: the folder is checked before the runs and created only after them. Exit
// code 0 when every verdict is as expected and no run contradicts the record, 1 otherwise.
import { parseArgv } from '../base/parseArgv.ts';
import { loadRecordSource } from '../scenario/recordSource.ts';
import { buildDecisionRecord } from '../report/decisionRecord.ts';
import { renderRecordHtml } from '../report/recordHtml.ts';
import { renderRecordMarkdown } from '../report/recordMarkdown.ts';
import { checkReportDir, REPORT_FORMS, reportFiles, writeFileSet } from '../report/writeReports.ts';
import { runWindows } from '../modes/windows.ts';
import type { Command } from './command.ts';
import { deferSignals } from './deferSignals.ts';
import { text } from './flagValues.ts';
import { styleFor } from './style.ts';

export const command: Command = {
  usage: 'record <scenario|file|dir|all> [--out DIR]',
  spec: {
    command: 'record',
    flags: {
      out: { type: 'string', value: 'DIR', help: 'the folder the record and the reports it cites replace (default reports/record/): new, empty, or one faultline wrote' },
    },
    positionals: { min: 1, max: 1, name: 'scenario name, scenario file, folder of scenarios or "all"' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const ref = positionals[0]!;
    const outDir = text(values['out']) ?? 'reports/record';
    const source = await loadRecordSource(ref);
    // Find out before the runs, not after them, that the record cannot be written; create nothing yet.
    checkReportDir(outDir);
    const results = source.entries.map(({ entry, ref: r }) => runWindows(entry.scenario, { ref: r }));
    const record = buildDecisionRecord(source.spec, results, { scenarios: source.entries.map(({ entry }) => entry.scenario), outside: source.outside });
    // The reports first, so the record never links a page that is not there yet.
    await deferSignals(() =>
      writeFileSet(
        [...reportFiles(results, REPORT_FORMS), { file: 'record.md', content: () => renderRecordMarkdown(record) }, { file: 'record.html', content: () => renderRecordHtml(record) }],
        outDir,
      ),
    );
    const c = styleFor(io.colorLevel);
    const unexpected = results.filter((r) => !r.judgement.asExpected);
    const contradicted = record.openItems.filter((x) => x.kind === 'contradicted');
    for (const r of unexpected) io.out(c.red(`${r.name}: verdict ${r.judgement.verdict}, not as expected`));
    for (const x of contradicted) io.out(c.red(`${x.id}: ${x.item}: ${x.reason}`));
    const runs = results.reduce((n, r) => n + r.coverage.runs, 0);
    io.out(
      `record ${source.spec.document.id}: ${source.spec.flows.length} flow${source.spec.flows.length === 1 ? '' : 's'}, ${results.length} scenarios, ${runs} runs, ${record.openItems.length} open item${record.openItems.length === 1 ? '' : 's'}` +
        `${contradicted.length === 0 ? '' : `, ${contradicted.length} contradicted by a run`}; written to ${outDir}/record.md and ${outDir}/record.html`,
    );
    return unexpected.length === 0 && contradicted.length === 0 ? 0 : 1;
  },
};
