import { join, resolve } from 'node:path';
import { ClockcheckError, UsageError } from '../../errors.ts';
import { isRuleId, RULES, type RuleId } from '../../contract/rules.ts';
import { didYouMean } from '../../did-you-mean.ts';
import { readHar } from '../../grade/har-input.ts';
import { gradeReport, tallyTraffic } from '../../grade/grade-report.ts';
import { passiveCoverage } from '../../grade/passive-rules.ts';
import { apiTraffic } from '../../grade/traffic.ts';
import { defaultProfile, loadProfile } from '../../profile/profile.ts';
import { parseRateLimit } from '../../contract/rate-limit.ts';
import { summaryTable, verdictSummary } from '../../report/terminal-reporter.ts';
import { writeReports } from '../../report/write-reports.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { useColor } from '../color.ts';

const { passive, total } = passiveCoverage();

export const GRADE_COMMAND = defineCommand({
  name: 'grade',
  description: `Grades recorded traffic against the spec without sending a request: reads a HAR file (a browser's
"Save all as HAR", a proxy's or Postman's recording, \`clockcheck run --har\`), keeps the exchanges under
the API prefix (other hosts' and paths' traffic is left out), matches each to its operation (§4) and judges
every rule a recorded exchange can show: record shapes and formats, accepted or refused bodies against the
field rules, offsets against timezones, pagination blocks, links and page sizes, sort orders, JSON bodies,
HEAD, authentication, status codes, and the rate limit where the traffic went beyond it (${passive} of the
${total} rules). Rules that need probing are listed as not judged, with what they take. Writes
reports/<id>/{report.json,report.html,junit.xml} in the run's format, with the same rule IDs.
Base64 and compressed bodies are decoded; a body the recording left out judges nothing. The recording's
own credentials (Authorization, cookies, API-key headers) are redacted in every report, in every encoding.
--profile gives the server's readings as for run (its prefix, record field names, status codes, company
timezone, limit); without it the spec's defaults apply and the rules that need the server's readings are not judged.
Exit codes: 0 nothing judged failed; 1 a rule failed; 2 the file is not a HAR, holds no exchange of the API, or an option is wrong.`,
  options: {
    profile: { kind: 'string', placeholder: 'FILE', help: "the target profile: api_prefix, record_fields, status_codes, company_timezone, rate_limit" },
    'rate-limit': { kind: 'parsed', placeholder: 'LIMIT/WINDOW', parse: parseRateLimit, defaultHelp: "the profile's rate_limit (the spec's 60/60s)", help: 'the limit to judge RATE-LIMIT-CAP against' },
    host: { kind: 'string', placeholder: 'HOST[:PORT]', defaultHelp: 'every host', help: "only the exchanges with this host (the profile's target host when it names one)" },
    only: { kind: 'list', placeholder: 'RULE', help: 'only these rule IDs in the report' },
    'report-dir': { kind: 'string', placeholder: 'DIR', default: 'reports', help: 'where <id>/ goes' },
    quiet: { kind: 'boolean', help: 'print only the verdict line' },
  },
  positionals: [{ name: 'har', required: true, help: 'the HAR file (HAR 1.2) to grade' }],
});

function ruleIds(names: readonly string[]): RuleId[] {
  return names.map((name) => {
    const upper = name.toUpperCase();
    if (isRuleId(upper)) return upper;
    const hint = didYouMean(upper, RULES.map((r) => r.id));
    throw new UsageError(`--only: "${name}" is not a rule ID${hint ? ` (did you mean ${hint}?)` : ''}; \`clockcheck rules\` lists them`);
  });
}

export async function gradeCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(GRADE_COMMAND, argv);
  if (!input) return 0;
  const { options, args } = input;
  const only = ruleIds(options.only ?? []);
  const loaded = options.profile === undefined ? defaultProfile() : await loadProfile(options.profile);
  const limit = options['rate-limit'];
  const profile = limit ? { ...loaded, rate_limit: { ...loaded.rate_limit, limit: limit.limit, window: limit.windowMs } } : loaded;
  const startedAt = new Date();
  const recording = await readHar(args.har);
  const host = options.host ?? (profile.target ? new URL(profile.target).host : undefined);
  const traffic = apiTraffic(recording.entries, { apiPrefix: profile.api_prefix, ...(host ? { host } : {}), ...(process.env[profile.token_env] ? { envToken: process.env[profile.token_env] } : {}) });
  if (traffic.observed.length === 0) {
    const where = `${host ? `on ${host} ` : ''}under ${profile.api_prefix}`;
    throw new ClockcheckError('CLOCKCHECK_TRAFFIC', `${args.har}: no exchange of the API ${where} among its ${recording.entries.length} entries (give --profile with the server's api_prefix, or --host)`);
  }
  const reading = { profile, given: options.profile !== undefined };
  const report = gradeReport({ file: args.har, traffic, unreadable: recording.unreadable, reading, only, startedAt }, tallyTraffic(traffic, reading));
  const paths = await writeReports(report, join(resolve(options['report-dir']), report.runId), {});
  const color = useColor(process.stdout);
  process.stdout.write(options.quiet ? verdictSummary(report, { color }) : summaryTable(report, { color, paths }));
  return report.exitCode;
}
