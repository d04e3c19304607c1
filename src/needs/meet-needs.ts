import type { Exchange } from '../client/exchange.ts';
import { RunStopped } from '../errors.ts';
import { BUILTIN_CHECKS } from '../checks/registry.ts';
import type { CountableList } from '../checks/list-need.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckStep } from '../scenarios/format.ts';
import { runDates } from '../scenarios/template-context.ts';
import { censusLists, takeCensus } from './census.ts';
import { decide, type Adaptation, type Decisions, type Provisioning } from './fates.ts';
import { fixtureContradiction, type FixtureContradiction } from './fixture-check.ts';
import { familyNeeds, needsData, scenarioNeeds, type CheckNeeds } from './needs.ts';
import type { TargetRequest } from '../client/client.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import type { Ledger } from './ledger.ts';
import type { UniqueValues } from './unique-values.ts';
import { provision, type Provisioned } from './provision.ts';

/** The fate of each check, decided before any runs: what it runs with, or why it does not. */
export interface Fates {
  /** The run's profile, its fixtures completed with what the census found and the run created. */
  readonly profile: Profile;
  /** Checks skipped for a need the target does not hold and the API cannot (or may not) create: the need named. */
  readonly skips: ReadonlyMap<string, string>;
  /** Checks errored because what they need could not be created: the refusal, with its exchange. */
  readonly errors: ReadonlyMap<string, { readonly reason: string; readonly evidence: readonly Exchange[] }>;
  /** Check steps that ask for a smaller page than their suite wrote. */
  readonly adaptations: ReadonlyMap<CheckStep, Adaptation>;
  /** A user fixture the target's records contradict: the profile is wrong, so no check runs and nothing was created. */
  readonly contradiction?: FixtureContradiction;
}

/** What meeting the checks' needs reads of a run: the checks planned, how it sends, what it makes values from, where it writes down what it created. */
export interface NeedsRun {
  /** The checks planned (their needs are declared: needs.ts). */
  readonly checks: {
    readonly scenarios: readonly LoadedScenario[];
    readonly families: readonly PropertyFamily[];
    readonly casesPerFamily: number;
  };
  readonly profile: Profile;
  readonly readOnly: boolean;
  /** The run's seed: the dates of what it creates (runDates). */
  readonly seed: number;
  /** Every request: paced, guarded, watched for a revoked token. */
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly unique: UniqueValues;
  readonly ledger: Pick<Ledger, 'add'>;
  /** The run's notes: what was created is said there. */
  readonly notes: string[];
}

/** Fates when nothing needs data: the profile as it is. */
export function fatesOf(profile: Profile): Fates {
  return { profile, skips: new Map(), errors: new Map(), adaptations: new Map() };
}

/**
 * After the preflight: counts what the planned checks need of the target's data (one page of each
 * list they name), checks the profile's user fixtures against the target's user list when a planned
 * check names one (a contradicted profile is returned as such, before anything is created), decides
 * how each need is met (decide), creates what is missing through the API (provision), and says in
 * the run's notes what was created. Checks are not run here.
 */
export async function meetNeeds(run: NeedsRun, createAdmins: boolean): Promise<Fates> {
  const { checks } = run;
  const all = [...checks.scenarios.map((s) => scenarioNeeds(s, BUILTIN_CHECKS)), ...familyNeeds(checks.families, { readOnly: run.readOnly, cases: checks.casesPerFamily })];
  const needs = all.filter(needsData);
  try {
    return await decideAndProvision(run, needs, censusLists(all, run.profile), createAdmins);
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    // Its budget or a signal stopped the run: what was not sent is not run, never errored (the execute stage says why).
    if (error.stoppedBy === 'budget' || error.stoppedBy === 'interrupted') return fatesOf(run.profile);
    // The run stopped (its time limit, a dead target, a revoked token) while it counted and made what
    // these checks need: they were under way, so errored; every other check is not run.
    const stopped = { reason: `the run stopped while it counted and made what this check needs: ${error.reason}`, evidence: [] };
    return { ...fatesOf(run.profile), errors: new Map(needs.map((n) => [n.checkId, stopped])) };
  }
}

/** The census of `lists`, the profile's user fixtures checked against it, the decisions on the data needs and what is created. */
async function decideAndProvision(run: NeedsRun, needs: readonly CheckNeeds[], lists: ReadonlySet<CountableList>, createAdmins: boolean): Promise<Fates> {
  const { profile, readOnly } = run;
  if (lists.size === 0) return fatesOf(profile);
  const census = await takeCensus(run.send, lists, profile);
  const contradiction = fixtureContradiction(census, profile);
  if (contradiction) return { ...fatesOf(profile), contradiction };
  const decisions = decide(needs, census, profile, { readOnly, createAdmins });
  const made = isEmpty(decisions.provisioning) ? null : await provision(decisions.provisioning, {
    send: run.send,
    profile: { ...profile, fixtures: { ...profile.fixtures, ...decisions.found } },
    unique: run.unique,
    dates: runDates(run.seed),
    onCreated: (resource) => run.ledger.add(resource),
  });
  if (made) run.notes.push(provisionNote(decisions.provisioning, made));
  return {
    profile: { ...profile, fixtures: completedFixtures(profile, decisions, made) },
    skips: decisions.skips,
    errors: made?.failure ? new Map([...decisions.provisioned].map((id) => [id, { reason: `could not create what it needs: ${made.failure}`, evidence: made.exchanges.slice(-1) }])) : new Map(),
    adaptations: decisions.adaptations,
  };
}

function isEmpty(plan: Provisioning): boolean {
  return plan.users.length === 0 && plan.moreUsers === 0 && plan.timesheets === 0 && plan.breaks === 0;
}

/** The profile's fixtures, with the census's finds and the users the run created. */
function completedFixtures(profile: Profile, decisions: Decisions, made: Provisioned | null): Profile['fixtures'] {
  const fixtures = { ...profile.fixtures, ...decisions.found };
  if (!made) return fixtures;
  const roles = { ...fixtures.role_user_ids };
  for (const [role, id] of Object.entries(made.roleUsers)) if ((roles[role as keyof typeof roles]?.length ?? 0) === 0) roles[role as keyof typeof roles] = [id];
  return {
    ...fixtures,
    role_user_ids: roles,
    ...((fixtures.active_user_ids?.length ?? 0) === 0 && made.users.length > 0 ? { active_user_ids: made.users.slice(0, 3) } : {}),
  };
}

/** What the run created to meet its checks' needs, for the report's notes. */
function provisionNote(plan: Provisioning, made: Provisioned): string {
  const counts = [
    [plan.users.length + plan.moreUsers, 'user'],
    [plan.timesheets + (plan.breaks > 0 ? Math.ceil(plan.breaks / 22) : 0), 'timesheet'],
    [plan.breaks, 'break'],
  ] as const;
  const what = counts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}${n === 1 ? '' : 's'}`).join(', ');
  const created = made.exchanges.length - (made.failure ? 1 : 0);
  return `to meet its checks' needs the run ${made.failure ? `set out to create ${what}; ${created} created, then ${made.failure}` : `created ${what}`} (permanent: the spec has no delete for them; listed under the created resources)`;
}
