import { diffReports, DiffableReport } from '../../diff/report-diff.ts';
import { renderDiffMarkdown, renderDiffText } from '../../diff/render-diff.ts';
import { readReportFile } from '../../report/read-report.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';

export const DIFF_COMMAND = defineCommand({
  name: 'diff',
  description: `Compares two reports: two releases of a server, or before and after a fix. Lists, check by
check (by stable check ID):
  NEW FAILURE     failed or errored in NEW, not in OLD (it passed, was skipped, not run or waived, or was absent)
  STILL FAILING   failed or errored in both; "new:" names rules it breaks in NEW and did not in OLD
  NOT RUN         failed or errored in OLD, skipped, not run or absent in NEW (neither fixed nor failing)
  FIXED           failed or errored in OLD, passed in NEW
then the rules newly covered or no longer covered (judged: a check passed, failed or waived on them;
both reports' coverage recomputed from their checks, a 1.x report's too), and changes of target,
tool version, spec SHA-256 and TLS fingerprint.
Exit 1 when NEW has a failure OLD did not have (a new failure, or a check still failing on a new
rule), so a CI gate can allow known failures and block regressions; 0 otherwise; 2 on misuse.`,
  options: {
    format: { kind: 'choice', values: ['text', 'json', 'markdown'], default: 'text', help: 'text for a terminal, markdown for a pull-request comment, json the whole comparison' },
  },
  positionals: [
    { name: 'old', required: true, help: 'the earlier report: a report.json or the run directory that holds it' },
    { name: 'new', required: true, help: 'the later report, compared with OLD' },
  ],
});

export async function diffCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(DIFF_COMMAND, argv);
  if (!input) return 0;
  const { options, args } = input;
  const [before, after] = [await readReportFile(args.old, DiffableReport, 'diff'), await readReportFile(args.new, DiffableReport, 'diff')];
  const diff = diffReports(before.report, after.report);
  if (options.format === 'json') console.log(JSON.stringify({ files: { old: before.path, new: after.path }, ...diff }, null, 2));
  else console.log(options.format === 'markdown' ? renderDiffMarkdown(diff) : renderDiffText(diff));
  return diff.regressed ? 1 : 0;
}
