import { lacking } from '../scenarios/skip-reason.ts';
import type { CheckResult } from '../report/model.ts';
import type { RunDates } from '../scenarios/template-context.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { isRuleId } from '../contract/rules.ts';
import type { GeneratorContext, PropertyFamily } from './family.ts';
import { fixturesContext } from './profile-context.ts';
import { familySeed, runPropertyFamily } from './runner.ts';
import { createSetupResource, SetupFailed } from './setup-resource.ts';

/** Extra requests shrinking may spend per failing family. */
export const SHRINK_BUDGET = 15;

export interface PropertyPhaseOptions {
  /** Generated cases every family sends (the run's budget shared evenly: `casesPerFamily`). */
  readonly cases: number;
  /** The run's budget, for the reason a family gets none. */
  readonly budget: number;
  readonly runSeed: number;
  /** Replays one case (with --only selecting one family). */
  readonly path?: string;
  /**
   * `--last-failed`: the failing case of each property family that failed there, by family name
   * (its fast-check path): the family replays that case alone instead of sending generated cases.
   */
  readonly casePaths?: Readonly<Record<string, string>>;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly dates: RunDates;
  readonly uniqueTag: string;
  readonly uniqueEmail: () => string;
  readonly replayBase: string;
  readonly readOnly: boolean;
}

/** The generated cases each of `families` families sends out of `budget`. */
export function casesPerFamily(budget: number, families: number): number {
  return Math.floor(budget / Math.max(1, families));
}

/** Whether `--only` selects a family: by its check ID, `properties`, or one of its rules. */
export function selectsFamily(only: readonly string[], family: PropertyFamily): boolean {
  if (only.length === 0) return true;
  return only.some((o) => o === `properties/${family.name}` || o === 'properties' || (isRuleId(o) && family.rules.includes(o)));
}

/** What identifies a family's result, whatever its verdict (a run that stopped reports it without running it). */
export function familyCheck(family: PropertyFamily, options: Pick<PropertyPhaseOptions, 'runSeed' | 'path' | 'casePaths' | 'replayBase'>): Pick<CheckResult, 'id' | 'title' | 'rules' | 'source' | 'replay'> {
  return {
    id: `properties/${family.name}`,
    title: family.title,
    rules: family.rules,
    source: { kind: 'property', generator: family.name, seed: familySeed(options.runSeed, family.name), path: casePathOf(family, options) ?? '' },
    replay: `${options.replayBase} --only properties/${family.name} --seed ${options.runSeed}`,
  };
}

/** The one case a family replays: its case path (--last-failed), else --path; undefined: it sends generated cases. */
function casePathOf(family: PropertyFamily, options: Pick<PropertyPhaseOptions, 'path' | 'casePaths'>): string | undefined {
  return options.casePaths?.[family.name] ?? options.path;
}

/** Runs one family with its share of the budget; a setup failure makes it errored. */
export async function runFamily(family: PropertyFamily, options: PropertyPhaseOptions): Promise<CheckResult> {
  const { profile } = options;
  const seed = familySeed(options.runSeed, family.name);
  const path = casePathOf(family, options);
  const base = { ...familyCheck(family, options), findings: [], durationMs: 0 };
  if (options.readOnly) return { ...base, status: 'skipped', reason: 'generated cases create data on the target (--read-only)', exchanges: [] };
  if (options.cases < 1 && !path) {
    return { ...base, status: 'skipped', reason: `the --budget of ${options.budget} generated cases leaves none for this family`, exchanges: [] };
  }
  const activeUserIds = profile.fixtures.active_user_ids ?? [];
  if (activeUserIds.length === 0) return { ...base, status: 'skipped', reason: lacking('fixtures.active_user_ids'), exchanges: [] };
  if (family.needs === 'timesheet' && profile.fixtures.break_rule_id === undefined) {
    return { ...base, status: 'skipped', reason: lacking('fixtures.break_rule_id'), exchanges: [] };
  }
  let resource;
  try {
    resource = family.needs ? await createSetupResource(family.needs, options.send, profile, options.dates, options.uniqueEmail()) : undefined;
  } catch (error) {
    if (!(error instanceof SetupFailed)) throw error;
    return { ...base, status: 'errored', reason: error.message, exchanges: [error.exchange] };
  }
  // The fixtures of the profile, but for breaks the timesheet the run just created (not the profile's).
  const { timesheet: _profileTimesheet, ...fixtures } = fixturesContext(profile, options.uniqueTag);
  const context: GeneratorContext = { ...fixtures, ...(resource?.timesheet ? { timesheet: resource.timesheet } : {}) };
  return runPropertyFamily({
    family,
    context,
    numRuns: Math.max(1, options.cases),
    shrinkBudget: SHRINK_BUDGET,
    seed,
    ...(path ? { path } : {}),
    ...(resource ? { resourceId: resource.id, setupExchange: resource.exchange } : {}),
    send: options.send,
    profile,
    replay: (_seed, path) => `${base.replay}${path ? ` --path ${path}` : ''}`,
  });
}
