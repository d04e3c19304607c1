import type { RunReport } from '../report/model.ts';
import { planWithinBudget } from './budget.ts';
import type { CertifyOptions } from './certify-options.ts';
import { cleanUpAfterSignal } from './cleanup.ts';
import { execute } from './execute.ts';
import { judge } from './judge.ts';
import { meetNeeds } from './meet-needs.ts';
import { openRun } from './open.ts';
import { profileContradicted, runPreflight } from './run-preflight.ts';

/**
 * Certifies a target, in the run's stages:
 * 1. plan: the checks, their requests and the ETA, fitted to a budget; nothing sent (plan.ts, budget.ts);
 * 2. open: the paced client, the guard, the token watch, the sink, the ledger (open.ts);
 * 3. preflight: reachable? the token accepted, in which form? (run-preflight.ts);
 * 4. fates: what each check needs of the target's data, counted, adapted to or created (meet-needs.ts);
 * 5. execute: the checks, in the plan's order (execute.ts);
 * 6. judge: coverage, summary and exit code, as a RunReport (judge.ts); a run a signal interrupted
 *    first makes its one cleanup attempt (cleanup.ts) and is judged `interrupted`.
 * Writing the reports is the caller's (report/write-reports.ts). A run that cannot be made (the
 * target unreachable, the token refused) is reported too, with `runError`.
 */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  const startedAt = new Date();
  const quickPacedAt = options.profile.rate_limit.bursts && options.quickPacing ? { pacedAt: options.quickPacing.rateLimit } : {};
  const planned = await planWithinBudget({ ...options, ...quickPacedAt }, options.runBudget);
  const run = await openRun(options, planned, startedAt);
  try {
    const opening = await runPreflight(run, planned);
    if (!opening.made) return judge(run, opening, opening.results, await cleanUpAfterSignal(run));
    const fates = await meetNeeds(run, options.createAdminUsers ?? false);
    if (fates.contradiction) {
      const contradicted = profileContradicted(run, planned, fates.contradiction, opening.results);
      return judge(run, contradicted, contradicted.results, await cleanUpAfterSignal(run));
    }
    options.onMade?.();
    const { results, stopped } = await execute(run, planned, fates);
    return judge(run, opening, [...opening.results, ...results], await cleanUpAfterSignal(run), stopped);
  } finally {
    await run.close();
  }
}
