import { CREATED_IDS_CHECK_ID } from '../records/created-ids.ts';
import { EVERY_ANSWER_CHECK_ID } from '../records/every-answer-check.ts';
import { SECRETS_CHECK_IDS } from '../records/secrets-watch.ts';
import { ISOLATION_CHECK_IDS } from '../isolation/isolation-check.ts';
import { READ_BACK_CHECK_ID } from '../records/read-back/read-back-check.ts';
import { USER_SEQUENCES_ID } from '../properties/user-sequences.ts';
import { BUILTIN_CHECK_NAMES } from '../checks/names.ts';
import { RunError } from '../needs/run-error.ts';
import { UsageError } from '../errors.ts';
import { loadSuites } from '../scenarios/loader.ts';
import type { Profile } from '../profile/profile.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { PROPERTY_FAMILIES } from '../properties/families.ts';
import { casesPerFamily } from '../properties/run-properties.ts';
import { RATE_LIMIT_CHECKS, type RateLimitCheckId } from '../ratelimit/rate-limit-checks.ts';
import { MONITOR_CHECK_ID } from '../ratelimit/monitor.ts';
import { TOKEN_FORM_CHECK_ID } from '../needs/preflight.ts';
import { assemblePlan, type PlanParts } from './assemble-plan.ts';
import type { RunPlan } from './run-plan.ts';
import { resolveSelection } from './selection.ts';

/** What a run is asked to do, before anything is sent. */
export interface PlanOptions {
  readonly profile: Profile;
  readonly suitesDir: string;
  readonly suiteGlob: string;
  /** Rule IDs, check IDs (`suite/scenario`) or suite names; empty: everything. */
  readonly only: readonly string[];
  /** `--skip`: the checks these names select are taken out of `only`'s (selection.ts). */
  readonly skip?: readonly string[];
  /** Generated cases the property phase sends in all (0: no property checks). */
  readonly budget: number;
  /** Replays one generated case (fast-check path), with --only naming one property family. */
  readonly path?: string;
  /**
   * `--last-failed`: the failing case of each property family that failed there, by family name
   * (its fast-check path): the family replays that case alone instead of sending generated cases.
   */
  readonly casePaths?: Readonly<Record<string, string>>;
  /** The property families (default: all of src/properties/families.ts). */
  readonly families?: readonly PropertyFamily[];
  /**
   * The rate limit the paced checks go at, when not the profile's: the embedded server's quick
   * window (its rate-limit phase runs at the profile's, on a fresh limiter). Default: the profile's.
   */
  readonly pacedAt?: RateLimitSetting;
  /** `--read-only`: scenarios that change data are skipped (and cost nothing). */
  readonly readOnly?: boolean;
}

/**
 * Plans a run: loads and selects the suites, the property families and the rate-limit checks, and
 * counts the requests. Sends nothing.
 * @throws UsageError when --only or --skip names what the run does not have, or leaves nothing to run (selection.ts).
 * @throws RunError when --path does not name exactly one property family.
 */
export async function planRun(options: PlanOptions): Promise<RunPlan> {
  const { profile } = options;
  const loaded = await loadSuites(options.suitesDir, options.suiteGlob, BUILTIN_CHECK_NAMES);
  const selection = resolveSelection(options, { scenarios: loaded, families: options.families ?? PROPERTY_FAMILIES });
  const scenarios = options.path ? [] : loaded.filter(selection.scenario);
  const families = (options.families ?? PROPERTY_FAMILIES).filter(selection.family);
  if (options.path && families.length !== 1) {
    throw new RunError(`--path replays one generated case: name its property family with --only (e.g. --only properties/${families[0]?.name ?? 'user-password'}); ${families.length} selected`);
  }
  const casePaths = options.casePaths ?? {};
  // A family that replays its failing case sends that case alone; the budget is shared by the others.
  const generating = families.filter((f) => casePaths[f.name] === undefined);
  const parts: PlanParts = {
    readOnly: options.readOnly ?? false,
    scenarios,
    families,
    casePaths,
    casesPerFamily: options.path ? 1 : casesPerFamily(options.budget, generating.length),
    rateLimit: (id) => !options.path && selection.builtin(id),
    monitor: !options.path && selection.builtin(MONITOR_CHECK_ID),
    createdIds: !options.path && selection.builtin(CREATED_IDS_CHECK_ID),
    everyAnswer: !options.path && selection.builtin(EVERY_ANSWER_CHECK_ID),
    secrets: options.path ? [] : SECRETS_CHECK_IDS.filter((id) => selection.builtin(id)),
    readBack: !options.path && selection.builtin(READ_BACK_CHECK_ID),
    // Its sequences are generated cases too: --budget 0 sends none of them either.
    userSequences: !options.path && options.budget > 0 && selection.builtin(USER_SEQUENCES_ID),
    isolation: options.path ? [] : ISOLATION_CHECK_IDS.filter((id) => selection.builtin(id)),
    tokenFormCheck: !options.path && selection.builtin(TOKEN_FORM_CHECK_ID),
  };
  const builtins = parts.monitor || parts.createdIds || parts.everyAnswer || parts.secrets.length > 0 || parts.isolation.length > 0 || parts.readBack || parts.userSequences || parts.tokenFormCheck || (Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).some(parts.rateLimit);
  if (generating.length > 0 && generating.length === families.length && parts.casesPerFamily < 1 && scenarios.length === 0 && !builtins) {
    throw new UsageError(
      `run: --budget ${options.budget} leaves no generated case for the ${families.length} property ${families.length === 1 ? 'family' : 'families'} selected, so nothing would be judged; ` +
        `give --budget ${families.length} or more, or select other checks`,
    );
  }
  return assemblePlan(profile, options.pacedAt, parts);
}

/**
 * The plan restricted to the checks in `checkIds` (the preflight always stays), each chosen
 * property family sending `casesPerFamily` generated cases: what a budget chose (budget.ts).
 */
export function restrictPlan(full: RunPlan, profile: Profile, checkIds: ReadonlySet<string>, casesPerFamily: number): RunPlan {
  return assemblePlan(profile, full.pacedAt, {
    readOnly: full.readOnly,
    scenarios: full.scenarios.filter((s) => checkIds.has(s.id)),
    families: full.families.filter((f) => checkIds.has(`properties/${f.name}`)),
    casePaths: full.casePaths,
    casesPerFamily,
    rateLimit: (id) => full.rateLimit.selected(id) && checkIds.has(id),
    monitor: full.monitor && checkIds.has(MONITOR_CHECK_ID),
    createdIds: full.createdIds && checkIds.has(CREATED_IDS_CHECK_ID),
    everyAnswer: full.everyAnswer && checkIds.has(EVERY_ANSWER_CHECK_ID),
    secrets: full.secrets.filter((id) => checkIds.has(id)),
    readBack: full.readBack.on && checkIds.has(READ_BACK_CHECK_ID),
    userSequences: full.userSequences && checkIds.has(USER_SEQUENCES_ID),
    isolation: full.isolation.filter((id) => checkIds.has(id)),
    tokenFormCheck: full.tokenFormCheck,
  });
}
