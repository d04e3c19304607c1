import type { TokenScheme } from '../client/client.ts';
import { retainExchange } from '../client/retained.ts';
import type { CheckResult } from '../report/model.ts';
import { rateLimitBacklog } from './backlog.ts';
import type { BudgetedPlan } from './budget.ts';
import { checkUnits, leftOutByBudget, retainResult } from './execute.ts';
import { executionOf } from './execution.ts';
import { fatesOf } from './meet-needs.ts';
import type { OpenRun } from './open.ts';
import { preflight, TOKEN_FORM_CHECK_ID } from './preflight.ts';
import { RunError } from './run-error.ts';
import { applyWaivers } from './verdicts.ts';

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
      /** Why (unreachable, a refused token, redirected): the run exits 2 with this line. */
      readonly runError: string;
      /** The preflight errored with its evidence, and every other check not-run with the reason. */
      readonly results: readonly CheckResult[];
    };

/**
 * The preflight of an open run: is the target reachable, and is the token accepted, in which form?
 * The client switches to Bearer when only that is served; calls the target already counted in its
 * window are counted by the pacer too. A run that cannot be made is one verdict, with a report.
 */
export async function runPreflight(run: OpenRun, planned: BudgetedPlan): Promise<Opening> {
  const { options, transport, pacer, plan } = run;
  try {
    const pre = await preflight(transport.client, options.origin, options.profile, `${options.replayBase} --only auth`);
    if (pre.note) run.notes.push(pre.note);
    const backlog = rateLimitBacklog(pre.check.exchanges.at(-1), pre.check.exchanges.length);
    if (backlog > 0) {
      pacer.account(backlog);
      run.notes.push(`the target had counted ${backlog} earlier calls of this token in its current window (X-RateLimit-Remaining at the preflight); the pacing counted them too`);
    }
    const results = plan.tokenFormCheck || pre.check.status === 'failed' ? [retainResult(applyWaivers(pre.check, options.profile))] : [];
    return { made: true, scheme: pre.scheme, results, fingerprint: await transport.client.tlsFingerprint() };
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    run.notes.push(`the run could not be made: ${error.message}`);
    const execution = executionOf(run, fatesOf(run.options.profile));
    const notRun = checkUnits(plan, execution, options).flatMap((unit) => unit.notRun(`not run: ${error.message}`));
    return { made: false, runError: error.message, results: [preflightEvidence(error, `${options.replayBase} --only auth`), ...notRun, ...leftOutByBudget(planned, execution, options)] };
  }
}

/** The preflight's verdict when the run could not be made: errored, with the exchanges that showed why. */
function preflightEvidence(error: RunError, replay: string): CheckResult {
  return {
    id: TOKEN_FORM_CHECK_ID,
    title: 'the run preflight: the target answers GET /users with the token',
    rules: ['AUTH-HEADER-RAW'],
    source: { kind: 'builtin', name: 'preflight' },
    status: 'errored',
    reason: error.message,
    findings: [],
    exchanges: error.evidence.map(retainExchange),
    durationMs: error.evidence.reduce((ms, e) => ms + e.durationMs, 0),
    replay,
  };
}
