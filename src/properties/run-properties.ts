import type { CheckResult } from '../report/model.ts';
import type { RunDates } from '../scenarios/template.ts';
import type { TargetRequest } from '../target/client.ts';
import type { Exchange } from '../target/exchange.ts';
import type { Profile } from '../target/profile.ts';
import { isRuleId } from '../spec/rules.ts';
import type { GeneratorContext, PropertyFamily } from './family.ts';
import { familySeed, runPropertyFamily } from './runner.ts';
import { createSetupResource, SetupFailed } from './setup-resource.ts';

/** Extra requests shrinking may spend per failing family. */
export const SHRINK_BUDGET = 15;

export interface PropertyPhaseOptions {
  readonly families: readonly PropertyFamily[];
  /** Generated cases to send in all (shared evenly by the families). */
  readonly budget: number;
  readonly runSeed: number;
  /** Replays one case (with --only selecting one family). */
  readonly path?: string;
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly dates: RunDates;
  readonly uniqueTag: string;
  readonly uniqueEmail: () => string;
  readonly replayBase: string;
  readonly readOnly: boolean;
}

/** Whether `--only` selects a family: by its check ID, `properties`, or one of its rules. */
export function selectsFamily(only: readonly string[], family: PropertyFamily): boolean {
  if (only.length === 0) return true;
  return only.some((o) => o === `properties/${family.name}` || o === 'properties' || (isRuleId(o) && family.rules.includes(o)));
}

/** Requests the property phase will make: the budget, a setup per family that needs one, and shrinking headroom. */
export function plannedPropertyRequests(families: readonly PropertyFamily[], budget: number): number {
  if (families.length === 0 || budget <= 0) return 0;
  return budget + families.filter((f) => f.needs).length;
}

/** Runs every selected family with its share of the budget; setup failures make that family errored. */
export async function runProperties(options: PropertyPhaseOptions): Promise<CheckResult[]> {
  const { families, profile } = options;
  const perFamily = Math.floor(options.budget / Math.max(1, families.length));
  const results: CheckResult[] = [];
  for (const family of families) {
    const seed = familySeed(options.runSeed, family.name);
    const base = { id: `properties/${family.name}`, title: family.title, rules: family.rules, source: { kind: 'property' as const, generator: family.name, seed, path: options.path ?? '' }, findings: [], durationMs: 0, replay: `${options.replayBase} --only properties/${family.name} --seed ${options.runSeed}` };
    if (options.readOnly) {
      results.push({ ...base, status: 'skipped', reason: 'generated cases create data on the target (--read-only)', exchanges: [] });
      continue;
    }
    if (perFamily < 1 && !options.path) {
      results.push({ ...base, status: 'skipped', reason: `the --budget of ${options.budget} generated cases leaves none for this family`, exchanges: [] });
      continue;
    }
    const activeUserIds = profile.fixtures.active_user_ids ?? [];
    if (activeUserIds.length === 0) {
      results.push({ ...base, status: 'skipped', reason: 'the profile has no fixtures.active_user_ids', exchanges: [] });
      continue;
    }
    if (family.needs === 'timesheet' && profile.fixtures.break_rule_id === undefined) {
      results.push({ ...base, status: 'skipped', reason: 'the profile has no fixtures.break_rule_id', exchanges: [] });
      continue;
    }
    let resource;
    try {
      resource = family.needs ? await createSetupResource(family.needs, options.send, profile, options.dates, options.uniqueEmail()) : undefined;
    } catch (error) {
      if (!(error instanceof SetupFailed)) throw error;
      results.push({ ...base, status: 'errored', reason: error.message, exchanges: [error.exchange] });
      continue;
    }
    const context: GeneratorContext = {
      companyTimezone: profile.company_timezone,
      activeUserIds,
      ...(profile.fixtures.job_id !== undefined ? { jobId: profile.fixtures.job_id } : {}),
      ...(profile.fixtures.task_id !== undefined ? { taskId: profile.fixtures.task_id } : {}),
      ...(profile.fixtures.break_rule_id !== undefined ? { breakRuleId: profile.fixtures.break_rule_id } : {}),
      ...(resource?.timesheet ? { timesheet: resource.timesheet } : {}),
      uniqueTag: options.uniqueTag,
    };
    const result = await runPropertyFamily({
      family,
      context,
      numRuns: Math.max(1, perFamily),
      shrinkBudget: SHRINK_BUDGET,
      seed,
      ...(options.path ? { path: options.path } : {}),
      ...(resource ? { resourceId: resource.id } : {}),
      send: options.send,
      profile,
      replay: (_seed, path) => `${base.replay}${path ? ` --path ${path}` : ''}`,
    });
    results.push(result);
  }
  return results;
}
