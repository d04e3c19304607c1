import type { TokenScheme } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import { RunStopped } from '../errors.ts';
import type { CheckResult } from '../report/model.ts';
import { rateLimitBacklog } from '../needs/backlog.ts';
import type { BudgetedPlan } from '../plan/budget.ts';
import { checkUnits, leftOutByBudget, retainResult } from '../execute/execute.ts';
import { executionOf } from '../execute/execution.ts';
import type { FixtureContradiction } from '../needs/fixture-check.ts';
import { fatesOf } from '../needs/meet-needs.ts';
import type { OpenRun } from '../execute/open.ts';
import { preflight, secondTokenPreflight, TOKEN_FORM_CHECK_ID } from '../needs/preflight.ts';
import { RunError } from '../needs/run-error.ts';
import { applyWaivers } from '../execute/verdicts.ts';

/** The check that reports a profile the target contradicts. */
export const PROFILE_CHECK_ID = 'run/profile';

/** The replay of the preflight and of what stands in for it. */
const replay = (checks: OpenRun['checks']) => `${checks.replayBase} --only auth`;

/** What the preflight told the run, or why the run could not be made. */
export type Opening =
  | {
      readonly made: true;
      /** How every check but the AUTH-HEADER-RAW ones writes the token. */
      readonly scheme: TokenScheme;
      /** The auth/token-form check when it was selected or failed. */
      readonly results: readonly CheckResult[];
      /** SHA-256 fingerprint of the target's certificate. */
      readonly fingerprint: string | null;
    }
  | {
      readonly made: false;
      /** Why (unreachable, a refused token, redirected, stopped at the preflight, a profile the target contradicts): the run exits 2 with this line. */
      readonly runError: string;
      /** The check that shows why (the preflight, or `run/profile`) with its evidence, and every other check not-run with the reason. */
      readonly results: readonly CheckResult[];
    };

/**
 * The preflight of an open run: is the target reachable, and is the token accepted, in which form?
 * The client switches to Bearer when only that is served; calls the target already counted in its
 * window are counted by the pacer too. A run that cannot be made is one verdict, with a report.
 */
export async function runPreflight(run: OpenRun, planned: BudgetedPlan): Promise<Opening> {
  const { checks, transport, pacer, plan } = run;
  try {
    const pre = await preflight(transport.client, run.origin, checks.profile, replay(checks));
    if (pre.note) run.notes.push(pre.note);
    if (plan.secondTokenPreflight) await secondTokenPreflight(transport.client, run.origin, checks.profile);
    const backlog = rateLimitBacklog(pre.check.exchanges.at(-1), pre.check.exchanges.length);
    if (backlog > 0) {
      pacer.account(backlog);
      run.notes.push(`the target had counted ${backlog} earlier calls of this token in its current window (X-RateLimit-Remaining at the preflight); the pacing counted them too`);
    }
    const results = plan.tokenFormCheck || pre.check.status === 'failed' ? [retainResult(applyWaivers(pre.check, checks.profile))] : [];
    return { made: true, scheme: pre.scheme, results, fingerprint: await transport.client.tlsFingerprint() };
  } catch (error) {
    if (error instanceof RunError) return notMade(run, planned, error.message, preflightEvidence(error.message, error.evidence, 'errored', replay(checks)));
    if (!(error instanceof RunStopped)) throw error;
    // A signal or the budget stopped the run at its preflight: nothing was judged, so not run; the target or the time limit: errored.
    const status = error.stoppedBy === 'interrupted' || error.stoppedBy === 'budget' ? 'not-run' : 'errored';
    return notMade(run, planned, error.reason, preflightEvidence(error.reason, [], status, replay(checks)));
  }
}

/**
 * The run when the profile's user fixtures contradict the target's records (fixture-check.ts): the
 * profile was wrong, so nothing is judged. Not made, with `runError` "profile: <key>: <reason>"
 * (exit 2); the contradiction's evidence as the check `run/profile`, errored; the preflight's own
 * verdicts (`preflightResults`, the opening's results) kept; every planned check not run, naming the key.
 */
export function profileContradicted(run: OpenRun, planned: BudgetedPlan, contradiction: FixtureContradiction, preflightResults: readonly CheckResult[] = []): Opening {
  const runError = `profile: ${contradiction.key}: ${contradiction.reason}`;
  const evidence: CheckResult = {
    id: PROFILE_CHECK_ID,
    title: "the profile's fixtures, checked against the target's records",
    rules: [],
    source: { kind: 'builtin', name: 'profile' },
    status: 'errored',
    reason: runError,
    findings: [],
    exchanges: contradiction.evidence.map(retainExchange),
    durationMs: contradiction.evidence.reduce((ms, e) => ms + e.durationMs, 0),
    replay: replay(run.checks),
  };
  const opening = notMade(run, planned, runError, evidence, `the profile contradicts the target: ${contradiction.key}`);
  return { ...opening, results: [...preflightResults, ...opening.results] };
}

/**
 * A run not made: the line it exits 2 with (`runError`, also in the notes), the check that shows
 * why, every planned check not run ("not run: <why>", `why` the runError unless given) and what the
 * budget left out.
 */
function notMade(run: OpenRun, planned: BudgetedPlan, runError: string, evidence: CheckResult, why = runError): Opening {
  const { checks, plan } = run;
  run.notes.push(`the run could not be made: ${runError}`);
  const execution = executionOf(run, fatesOf(checks.profile));
  const notRun = checkUnits(plan, execution, checks).flatMap((unit) => unit.notRun(`not run: ${why}`));
  return { made: false, runError, results: [evidence, ...notRun, ...leftOutByBudget(planned, execution, checks)] };
}

/** The preflight's verdict when the run could not be made: errored (not run when a signal or the budget stopped it), with the exchanges that showed why. */
function preflightEvidence(reason: string, evidence: readonly Exchange[], status: 'errored' | 'not-run', replayCommand: string): CheckResult {
  return {
    id: TOKEN_FORM_CHECK_ID,
    title: 'the run preflight: the target answers GET /users with the token',
    rules: ['AUTH-HEADER-RAW'],
    source: { kind: 'builtin', name: 'preflight' },
    status,
    reason,
    findings: [],
    exchanges: evidence.map(retainExchange),
    durationMs: evidence.reduce((ms, e) => ms + e.durationMs, 0),
    replay: replayCommand,
  };
}
