import type { RunReport } from '../report/model.ts';
import { planWithinBudget } from '../plan/budget.ts';
import { resolveCertification, type CertifyOptions, type ReportSettings } from './certify-options.ts';
import { cleanUpAfterSignal } from '../execute/cleanup.ts';
import { checkUnits, execute } from '../execute/execute.ts';
import { executionOf } from '../execute/execution.ts';
import { loopEmptiedCause, watchLoop } from '../execute/loop-watch.ts';
import { judge } from './judge.ts';
import { fatesOf, meetNeeds, type NeedsRun } from '../needs/meet-needs.ts';
import { openRun, type OpenRun } from '../execute/open.ts';
import { profileContradicted, runPreflight, type Opening } from './run-preflight.ts';

/**
 * Certifies a target, in the run's stages, its options resolved once into each stage's part
 * (certify-options.ts):
 * 1. plan: the checks, their requests and the ETA, fitted to a budget; nothing sent (plan/plan.ts, plan/budget.ts);
 * 2. open: the paced client, the guard, the token watch, the sink, the ledger (execute/open.ts);
 * 3. preflight: reachable? the token accepted, in which form? (run-preflight.ts);
 * 4. fates: what each check needs of the target's data, counted, adapted to or created (needs/meet-needs.ts);
 * 5. execute: the checks, in the plan's order (execute/execute.ts);
 * 6. judge: coverage, summary and exit code, as a RunReport (judge.ts); a run a signal interrupted
 *    first makes its one cleanup attempt (execute/cleanup.ts) and is judged `interrupted`.
 * Writing the reports is the caller's (report/write-reports.ts). A run that cannot be made (the
 * target unreachable, the token refused) is reported too, with `runError`.
 */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  const startedAt = new Date();
  const certification = resolveCertification(options);
  const { report } = certification;
  const planned = await planWithinBudget(certification.planning, certification.runBudget);
  const run = await openRun(certification.opening, planned, startedAt);
  const loop = watchLoop();
  try {
    const opening = await runPreflight(run, planned);
    if (!opening.made) return judge(run, report, opening, opening.results, await cleanUpAfterSignal(run));
    try {
      const fates = await Promise.race([meetNeeds(needsOf(run), certification.createAdminUsers), loop.emptied.then(() => null)]);
      // The loop emptied while the run counted and made what its checks need: every check errored with the cause, exit 70.
      if (fates === null) return await endedByBug(run, report, opening, loopEmptiedCause('what its checks need (the census and the records it creates)'));
      if (fates.contradiction) {
        const contradicted = profileContradicted(run, planned, fates.contradiction, opening.results);
        return judge(run, report, contradicted, contradicted.results, await cleanUpAfterSignal(run));
      }
      certification.onMade?.();
      const { results, stopped, internalError } = await execute(run, planned, fates, loop);
      return judge(run, report, opening, [...opening.results, ...results], await cleanUpAfterSignal(run), stopped, internalError);
    } catch (error) {
      // What no stage throws for the target's doing: a bug of ours, reported with what the run knows, exit 70.
      return await endedByBug(run, report, opening, `internal error: ${error instanceof Error ? error.message : String(error)} (a bug in clockcheck, please report it; the checks from here on errored)`);
    }
  } finally {
    loop.dispose();
    await run.close();
  }
}

/** What meeting the checks' needs reads of the open run. */
function needsOf(run: OpenRun): NeedsRun {
  const { checks, plan } = run;
  return { checks: plan, profile: checks.profile, readOnly: checks.readOnly, seed: checks.seed, send: run.send, unique: run.unique, ledger: run.ledger, notes: run.notes };
}

/** The report of a run a bug of clockcheck's ended after its preflight: every planned check errored with `cause`, exit 70. */
async function endedByBug(run: OpenRun, report: ReportSettings, opening: Opening, cause: string): Promise<RunReport> {
  run.notes.push(cause);
  const units = checkUnits(run.plan, executionOf(run, fatesOf(run.checks.profile)), run.checks);
  const results = units.flatMap((unit) => unit.notRun(cause, 'errored'));
  return judge(run, report, opening, [...opening.results, ...results], await cleanUpAfterSignal(run), null, cause);
}
