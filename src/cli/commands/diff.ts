import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ClockcheckError } from '../../errors.ts';
import { diffReports, DiffableReport } from '../../diff/report-diff.ts';
import { renderDiffMarkdown, renderDiffText } from '../../diff/render-diff.ts';
import { REPORT_FILES } from '../../report/write-reports.ts';
import { readJsonFile, type JsonFileRole } from '../../input/json-file.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';

/**
 * A report is read as a stream and only what the diff compares is kept (per check its ID, title,
 * status, rules, reason and its findings' rule IDs; never the exchanges): a report of gigabytes
 * takes a few megabytes. A run's report keeps some tens of kilobytes of these; past this bound the
 * file is refused, named, rather than filling memory.
 */
export const MAX_DIFF_KEPT_BYTES = 32 * 1024 * 1024;

const REPORT_ROLE: JsonFileRole = {
  reader: 'diff',
  what: 'a clockcheck report.json',
  hint: 'give the report.json a clockcheck run wrote, or the run directory that holds it',
  code: 'CLOCKCHECK_REPORT',
  maxKeptBytes: MAX_DIFF_KEPT_BYTES,
};

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
rule), so a CI gate can allow known failures and block regressions; 0 otherwise; 2 on misuse or a file
that is not a report. A report is read as a stream: a report of gigabytes takes a few megabytes.`,
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
  const [before, after] = [await readReport(args.old), await readReport(args.new)];
  const diff = diffReports(before.report, after.report);
  if (options.format === 'json') console.log(JSON.stringify({ files: { old: before.path, new: after.path }, ...diff }, null, 2));
  else console.log(options.format === 'markdown' ? renderDiffMarkdown(diff) : renderDiffText(diff));
  return diff.regressed ? 1 : 0;
}

/** `given`, a report.json or the run directory that holds one, read for the diff. */
async function readReport(given: string): Promise<{ readonly path: string; readonly report: DiffableReport }> {
  const info = await stat(given).catch(() => null);
  if (info === null) throw new ClockcheckError('CLOCKCHECK_INPUT_FILE', `diff: no report at ${given}; ${REPORT_ROLE.hint}`);
  const path = info.isDirectory() ? join(given, REPORT_FILES.json) : given;
  if (info.isDirectory() && (await stat(path).catch(() => null)) === null) {
    throw new ClockcheckError('CLOCKCHECK_INPUT_FILE', `diff: no report at ${given}: a directory without a ${REPORT_FILES.json}; ${REPORT_ROLE.hint}`);
  }
  return { path, report: await readJsonFile(path, DiffableReport, REPORT_ROLE) };
}
