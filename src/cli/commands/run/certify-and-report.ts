import { UsageError } from '../../../errors.ts';
import { summaryTable, verdictSummary } from '../../../report/terminal-reporter.ts';
import type { RunReport } from '../../../report/model.ts';
import { minRulesShortfall } from '../../../report/run-verdict.ts';
import type { ExtraReports } from '../../../report/write-reports.ts';
import { ledgerText } from '../../../report/ledger-text.ts';
import { terminalSafe } from '../../../report/terminal-text.ts';
import { Redactor } from '../../../client/redaction.ts';
import { EMBEDDED_RATE_LIMIT, QUICK_RATE_LIMIT, embeddedProfile, embeddedQuickPacing } from '../../../embedded/embedded-profile.ts';
import { spawnEmbeddedTarget, type EmbeddedProcess } from '../../../embedded/embedded-process.ts';
import type { Profile } from '../../../profile/profile.ts';
import { Interruption } from '../../../execute/interruption.ts';
import type { CertifyOptions } from '../../../run/certify-options.ts';
import { resolveTargetAccess } from '../../target-access.ts';
import { useColor } from '../../color.ts';
import { HeldProgress } from '../../held-progress.ts';
import { listenForSignals } from '../../signals.ts';
import { withRateLimitOption, type RunInput } from './run-input.ts';
import { writeRunReports } from './write-run-reports.ts';

/** Where a run goes and with what: the target's `{base_url}`, the token, the trust, the profile. */
interface OpenedTarget {
  readonly origin: string;
  readonly token: string;
  /** The second company's token, when the profile (or the embedded server) has one. */
  readonly secondToken: string | undefined;
  readonly caPem: string | undefined;
  readonly profile: Profile;
}

/** The certification: the target opened (the embedded server started), every check run, the reports written, the summary printed. */
export async function certifyAndReport(run: RunInput): Promise<number> {
  // The certification's modules (about 0.3 s to load) load while the embedded server starts in its own process.
  const starting = run.targetUrl ? null : spawnEmbeddedTarget({ faults: run.faults, rateLimit: run.quick ? QUICK_RATE_LIMIT : EMBEDDED_RATE_LIMIT, secondCompany: true });
  starting?.catch(() => undefined); // a failed start is reported where it is awaited, below, not as an unhandled rejection
  const { certify } = await import('../../../run/certify.ts');
  const server = await starting;
  const interruption = new Interruption();
  const stopListening = listenForSignals(interruption);
  try {
    const target = await openTarget(run, server);
    const profile = withRateLimitOption(target.profile, run.rateLimit);
    const webhookSecret = server ? undefined : webhookSecretFromEnv(profile);
    const progress = run.output.quiet ? null : new HeldProgress(process.stderr);
    const report = await certify({
      ...certifyOptionsOf(run, { ...target, profile }, server),
      ...(webhookSecret === undefined ? {} : { webhookSecret }),
      progress,
      interruption,
      ...(progress ? { onMade: () => progress.made() } : {}),
    });
    progress?.settle(report.runError === undefined);
    // A run that could not be made says why first (its progress held back) and last (after the report paths);
    // so does a run the target or its time limit stopped before its end.
    const fatal = fatalLine(report);
    if (fatal !== null) console.error(fatal);
    // The HAR's query parameters are decoded from the URLs: redacted once more, with the run's secrets.
    const redactor = run.output.har ? new Redactor(target.token, [...(webhookSecret === undefined ? [] : [webhookSecret]), ...(target.secondToken === undefined ? [] : [target.secondToken])]) : null;
    const extra: ExtraReports = redactor ? { har: { redact: (text) => redactor.text(text) } } : {};
    const paths = await writeRunReports(run, report, profile, server, extra);
    const color = useColor(process.stdout);
    process.stdout.write(run.output.quiet ? verdictSummary(report, { color }) : `${summaryTable(report, { color, paths })}\n${ledgerText(report)}\n`);
    const shortfall = minRulesShortfall(report.summary, report.options.minRules);
    if (fatal !== null) console.error(fatal);
    else if (shortfall !== null) console.error(`clockcheck: ${shortfall}`);
    return report.exitCode;
  } finally {
    stopListening();
    await server?.close();
  }
}

/** What the certification is asked, from the resolved run and its opened target (the CLI's signals, progress and secret added by the caller). */
function certifyOptionsOf(run: RunInput, target: OpenedTarget, server: EmbeddedProcess | null): Omit<CertifyOptions, 'progress'> {
  return {
    origin: target.origin,
    embedded: server !== null,
    profile: target.profile,
    token: target.token,
    ...(target.secondToken === undefined ? {} : { secondToken: target.secondToken }),
    ...(target.caPem === undefined ? {} : { caPem: target.caPem }),
    insecure: run.access.insecure || target.profile.tls.insecure,
    allowPlainHttp: run.access.allowHttp,
    ...run.selection,
    readOnly: run.readOnly,
    createAdminUsers: run.createAdminUsers,
    seed: run.seed,
    ...(run.lastFailed ? { rerunOf: { runId: run.lastFailed.runId, reportPath: run.lastFailed.reportPath } } : {}),
    ...(run.runBudget ? { runBudget: run.runBudget } : {}),
    ...(run.maxTimeMs === undefined ? {} : { maxTimeMs: run.maxTimeMs }),
    ...(run.minRules === undefined ? {} : { minRules: run.minRules }),
    ...(run.quick && server ? { quickPacing: embeddedQuickPacing((setting) => server.setRateLimit(setting)) } : {}),
    replayBase: run.replayBase(server ? null : target.origin),
  };
}

/** The line a run that could not be made, or that something stopped or a bug ended, prints first and last; null for any other. */
function fatalLine(report: RunReport): string | null {
  if (report.runError !== undefined) return `clockcheck: ${terminalSafe(report.runError)}`;
  if (report.internalError !== undefined) return `clockcheck: ${terminalSafe(report.internalError)}`;
  return report.stopped ? `clockcheck: the run stopped: ${terminalSafe(report.stopped.reason)}` : null;
}

/** Where the run goes and with what: the embedded server's own profile, or the target's with the token from the environment. */
async function openTarget(run: RunInput, server: EmbeddedProcess | null): Promise<OpenedTarget> {
  if (server) {
    const profile = { ...embeddedProfile({ ...server, rateLimit: EMBEDDED_RATE_LIMIT }), waivers: run.profile.waivers };
    return { origin: server.origin, token: server.token, secondToken: server.secondToken, caPem: server.caPem, profile };
  }
  const access = await resolveTargetAccess(run.targetUrl as string, run.profile, run.access);
  return { origin: access.origin, token: access.token, secondToken: access.secondToken, caPem: access.caPem, profile: run.profile };
}

/** The webhook subscription's secret from the profile's `webhook.secret_env` (a sink checks signatures with it); never from the command line. */
function webhookSecretFromEnv(profile: Profile): string | undefined {
  const name = profile.webhook?.secret_env;
  if (!name || !profile.webhook?.sink) return undefined;
  const secret = process.env[name];
  if (!secret) throw new UsageError(`set ${name} to the webhook subscription's secret (profile webhook.secret_env); it is never taken from the command line`);
  return secret;
}
