import { join } from 'node:path';
import { DEFAULT_BUDGET } from '../src/cli/commands/run.ts';
import { embeddedProfile } from '../src/embedded/embedded-profile.ts';
import { planWithinBudget } from '../src/plan/budget.ts';
import type { RunBudget } from '../src/plan/run-budget.ts';
import { plannedWrites } from '../src/plan/plan-writes.ts';
import type { RunPlan } from '../src/plan/run-plan.ts';
import type { RuleId } from '../src/contract/rules.ts';
import { ServerContext } from '../src/reference/context.ts';
import { STANDARD_DIALECT } from '../src/reference/dialect.ts';
import { FAULTS } from '../src/reference/faults.ts';
import { seed, type SeedName } from '../src/reference/seed.ts';
import { PAGE_SIZE_CALLS } from '../src/ratelimit/phase-figures.ts';

export interface PlanFigures {
  readonly label: string;
  /** Requests the plan counts (preflight and census, paced checks, the rate-limit phase). */
  readonly planned: number;
  readonly paced: number;
  /** The rate-limit phase: its calls (none of them a conformance call today) and the windows it spends. */
  readonly phaseRequests: number;
  readonly phaseWindows: number;
  /** The phase's windows beyond what its conformance calls (the page sizes under load) would take paced: what the rate-limit contract alone costs. */
  readonly contractWindows: number;
  /** Records the run creates, at most, to meet the checks' needs (the seed lacks them): requests the plan does not count. */
  readonly provisioning: number;
  /** Distinct rules the planned checks judge. */
  readonly rules: number;
  /** (planned + provisioning) / rules. */
  readonly requestsPerRule: number;
  /** Catalog faults whose rule a planned check names (an upper bound on what the plan can catch). */
  readonly faultsNamed: number;
  readonly faultsTotal: number;
  readonly etaMs: number;
}

const ROOT = join(import.meta.dirname, '..');
const AT_SPEC_LIMIT = { limit: 60, windowMs: 60_000 };

/**
 * `npm run bench -- --only plan`: what a certification of the embedded reference server's profile
 * costs at §8's 60 calls a minute (a target at the floor), planned without sending: against the
 * usual seed and against the smallest (`fresh`: the company's admin, nothing else, so the run
 * creates what its checks need), in full and within `--within 6m`. The property budget is the one
 * against a target (DEFAULT_BUDGET.external).
 */
export async function planFigures(): Promise<PlanFigures[]> {
  const figures: PlanFigures[] = [];
  for (const seedName of ['standard', 'fresh'] as const satisfies readonly SeedName[]) {
    for (const [what, budget] of [['full', undefined], ['--within 6m', { withinMs: 6 * 60_000 }]] as const satisfies ReadonlyArray<readonly [string, RunBudget | undefined]>) {
      figures.push(await figuresOf(`${seedName} seed, 60/60s, ${what}`, seedName, budget));
    }
  }
  return figures;
}

async function figuresOf(label: string, seedName: SeedName, budget: RunBudget | undefined): Promise<PlanFigures> {
  const companyTimezone = 'America/Chicago';
  const seedSummary = seed(new ServerContext(companyTimezone, new Set(), STANDARD_DIALECT), seedName);
  const profile = embeddedProfile({ seed: seedSummary, dialect: STANDARD_DIALECT, companyTimezone, rateLimit: AT_SPEC_LIMIT });
  const { plan } = await planWithinBudget({ profile, suitesDir: join(ROOT, 'suites'), suiteGlob: '**/*.yaml', only: [], budget: DEFAULT_BUDGET.external }, budget);
  const rules = judgedRules(plan);
  const writes = plannedWrites(plan, false).forNeeds;
  const provisioning = Object.values(writes).reduce((n: number, count) => n + (typeof count === 'number' ? count : 0), 0);
  return {
    label,
    planned: plan.requests,
    paced: plan.pacedRequests,
    phaseRequests: plan.rateLimit.requests,
    phaseWindows: plan.rateLimit.windows,
    contractWindows: plan.rateLimit.windows - (plan.rateLimit.selected('rate-limit/page-size-under-load') && plan.rateLimit.requests > 0 ? PAGE_SIZE_CALLS / 59 : 0),
    provisioning,
    rules: rules.size,
    requestsPerRule: (plan.requests + provisioning) / rules.size,
    faultsNamed: FAULTS.filter((f) => rules.has(f.rule)).length,
    faultsTotal: FAULTS.length,
    etaMs: plan.etaMs,
  };
}

/** The rules the plan's checks judge: every rule of a check the run will not skip. */
function judgedRules(plan: RunPlan): Set<RuleId> {
  return new Set(plan.checks.filter((c) => c.skip === undefined).flatMap((c) => c.rules));
}
