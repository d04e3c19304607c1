import { isChosenStop, type RunStopped } from '../errors.ts';
import { coverageOf } from '../report/coverage.ts';
import { REPORT_SCHEMA_VERSION, type CheckResult, type RunCleanup, type RunReport } from '../report/model.ts';
import { runExitCode } from '../report/run-verdict.ts';
import { profileForReport } from '../profile/profile.ts';
import { toolVersion } from '../version.ts';
import type { OpenRun } from '../execute/open.ts';
import type { ReportSettings } from './certify-options.ts';
import type { Opening } from './run-preflight.ts';
import { specIdentity } from '../contract/spec-document.ts';

/**
 * The report of a run: coverage, summary and exit code from its check results (report/coverage.ts,
 * report/run-verdict.ts), with what the run noted and created, and what stopped it before its end
 * (`stopped`, when the target or the time limit did: never a green run).
 */
export function judge(run: OpenRun, options: ReportSettings, opening: Opening, results: readonly CheckResult[], cleanup?: RunCleanup, stop?: RunStopped | null, internalError?: string | null): RunReport {
  const { startedAt, plan, transport } = run;
  const interruptedBy = run.limits.interruption?.signal ?? undefined;
  const runError = opening.made ? undefined : opening.runError;
  const { coverage, summary } = coverageOf(results);
  const stopped = stop && !isChosenStop(stop.stoppedBy) && interruptedBy === undefined ? { by: stop.stoppedBy === 'time-limit' ? ('time-limit' as const) : ('target' as const), reason: stop.reason } : undefined;
  const finishedAt = new Date();
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: `${startedAt.toISOString().replace(/[:.]/g, '-')}-${options.seed}`,
    tool: { name: 'clockcheck', version: toolVersion() },
    spec: specIdentity(),
    target: { baseUrl: options.origin, apiPrefix: options.profile.api_prefix, tlsFingerprint256: opening.made ? opening.fingerprint : null, embedded: options.embedded },
    profile: profileForReport(options.profile),
    seed: options.seed,
    options: {
      only: options.only,
      ...(options.skip?.length ? { skip: options.skip } : {}),
      readOnly: options.readOnly,
      suites: [options.suiteGlob],
      budget: options.budget,
      maxTimeMs: run.maxTimeMs,
      ...(options.runBudget?.withinMs === undefined ? {} : { withinMs: options.runBudget.withinMs }),
      ...(options.runBudget?.maxRequests === undefined ? {} : { maxRequests: options.runBudget.maxRequests }),
      ...(options.rerunOf ? { rerunOf: options.rerunOf.runId } : {}),
      ...(options.minRules === undefined ? {} : { minRules: options.minRules }),
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    plannedEtaMs: Math.round(plan.etaMs),
    requests: {
      planned: plan.requests,
      made: transport.made,
      unintended429: opening.made ? transport.monitor.unintended429 : 0,
      resent: opening.made ? transport.monitor.resent.length : 0,
    },
    tokenForm: opening.made ? opening.scheme : 'raw',
    notes: run.notes,
    checks: results,
    coverage,
    createdResources: run.ledger.created,
    summary,
    ...(runError === undefined ? {} : { runError }),
    ...(stopped === undefined ? {} : { stopped }),
    ...(internalError ? { internalError } : {}),
    ...(cleanup === undefined ? {} : { cleanup }),
    status: interruptedBy === undefined ? 'complete' : 'interrupted',
    exitCode: runExitCode({ summary, runError, minRules: options.minRules, interruptedBy, stopped: stopped !== undefined, internalError: internalError ?? undefined }),
  };
}
