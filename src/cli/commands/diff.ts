import { UsageError } from '../../errors.ts';
import { diffReports, DiffableReport } from '../../diff/report-diff.ts';
import { renderDiffMarkdown, renderDiffText } from '../../diff/render-diff.ts';
import { readReportFile } from '../../report/read-report.ts';
import { parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck diff OLD NEW [--format text|json|markdown]

Compares two reports (report.json files or the run directories that hold them): two releases of a
server, or before and after a fix. Lists, check by check (by stable check ID):
  NEW FAILURE     failed or errored in NEW, not in OLD (it passed, was skipped or waived, or did not run)
  STILL FAILING   failed or errored in both; "new:" names rules it breaks in NEW and did not in OLD
  NOT RUN         failed or errored in OLD, skipped or absent in NEW (neither fixed nor failing)
  FIXED           failed or errored in OLD, passed in NEW
then the rules newly covered or no longer covered, and changes of target, tool version, spec SHA-256
and TLS fingerprint. --format markdown writes a pull-request comment; json the whole comparison.
Exit 1 when NEW has a failure OLD did not have (a new failure, or a check still failing on a new
rule), so a CI gate can allow known failures and block regressions; 0 otherwise; 2 on misuse.`;

export async function diffCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, {
    format: { type: 'string', default: 'text' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`diff takes two reports, OLD and NEW; got ${positionals.length}. See \`clockcheck diff --help\``);
  const format = values.format;
  if (format !== 'text' && format !== 'json' && format !== 'markdown') throw new UsageError(`--format is text, json or markdown, not "${format}"`);
  const [oldPath, newPath] = positionals as [string, string];
  const [before, after] = [await readReportFile(oldPath, DiffableReport, 'diff'), await readReportFile(newPath, DiffableReport, 'diff')];
  const diff = diffReports(before.report, after.report);
  if (format === 'json') console.log(JSON.stringify({ files: { old: before.path, new: after.path }, ...diff }, null, 2));
  else console.log(format === 'markdown' ? renderDiffMarkdown(diff) : renderDiffText(diff));
  return diff.regressed ? 1 : 0;
}
