import fc from 'fast-check';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseWithinBudget } from '../../src/plan/budget.ts';
import type { Pacing } from '../../src/plan/budget-cover.ts';
import { FAULT_CATCHES, inFitHalf } from '../../src/plan/fault-catches.ts';
import { FAULTS } from '../../src/reference/faults.ts';
import { embeddedProfile, unstartedEmbeddedFacts } from '../../src/embedded/embedded-profile.ts';
import { planRun, restrictPlan } from '../../src/plan/plan.ts';
import type { RunPlan } from '../../src/plan/run-plan.ts';
import type { Profile } from '../../src/profile/profile.ts';
import { ROOT } from '../support/cli.ts';

/** The embedded server's profile at §8's 60 calls a minute: what a real target's run plans. */
const profile: Profile = (() => {
  const embedded = embeddedProfile(unstartedEmbeddedFacts());
  return { ...embedded, rate_limit: { ...embedded.rate_limit, limit: 60, window: 60_000 } };
})();
const PACING: Pacing = { allowed: 59, spanMs: 60_025 };
let full: RunPlan;

beforeAll(async () => {
  full = await planRun({ profile, suitesDir: join(ROOT, 'suites'), suiteGlob: '**/*.yaml', only: [], budget: 110 });
});

const rulesOf = (plan: RunPlan, ids: ReadonlySet<string>) => new Set(plan.checks.filter((c) => ids.has(c.id)).flatMap((c) => c.rules));

describe('chooseWithinBudget', () => {
  it('never plans more requests than --max-requests, and the restricted plan counts no more than the choice', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1200 }), (maxRequests) => {
        const choice = chooseWithinBudget(full, { maxRequests }, PACING);
        const plan = restrictPlan(full, profile, choice.checkIds, choice.casesPerFamily);
        // The same, but for the census (the chooser counts the full plan's, the preflight's cost; a restricted plan may need
        // fewer lists), the phase (the chooser counts its own requests at the most; beside paced checks it sends fewer) and
        // the read-back (the chooser counts its reads of all a full run writes; a plan that writes less reads less).
        expect(plan.requests).toBeLessThanOrEqual(choice.requests);
        const reads = (p: RunPlan) => p.checks.find((c) => c.kind === 'read-back')?.requests ?? 0;
        const fewerReads = choice.checkIds.has('records/read-back') ? reads(full) - reads(plan) : 0;
        expect(plan.requests).toBeGreaterThanOrEqual(choice.requests - (full.checks[0]!.requests - 1) - plan.rateLimit.carried - fewerReads);
        // The preflight always goes; everything else fits the budget.
        expect(plan.requests).toBeLessThanOrEqual(Math.max(maxRequests, 1));
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['a pair baseline', 'baseline', 15], // the *user and *schedule baselines of the users and schedules suites, among others
    ['a read-only setup', 'setup', 3], // the query suite's sort and role scenarios
    ['a `once` setup step', 'once', 4], // the anchor user of the query and users suites
  ] as const)('plans %s once when several scenarios send the same one, and charges it to a scenario run without the first', (_, kind, least) => {
    const partOf = (c: (typeof full.checks)[number]) => c.shared?.find((p) => p.key.startsWith(`${kind} `));
    const later = full.checks.filter((c) => partOf(c)?.sentEarlier);
    expect(later.length).toBeGreaterThanOrEqual(least);
    const check = later[0]!;
    const part = partOf(check)!;
    const first = full.checks.find((c) => partOf(c)?.key === part.key && !partOf(c)!.sentEarlier)!;
    expect(full.checks.indexOf(first)).toBeLessThan(full.checks.indexOf(check));
    const alone = restrictPlan(full, profile, new Set([check.id]), full.casesPerFamily);
    expect(alone.checks.find((c) => c.id === check.id)!.requests).toBe(check.requests + part.requests);
    const both = restrictPlan(full, profile, new Set([first.id, check.id]), full.casesPerFamily);
    expect(both.checks.find((c) => c.id === check.id)!.requests).toBe(check.requests);
  });

  it('runs everything when the budget holds the full plan', () => {
    const choice = chooseWithinBudget(full, { maxRequests: full.requests }, PACING);
    expect(choice.leftOut).toEqual([]);
    expect(choice.uncovered).toEqual([]);
    expect(choice.casesPerFamily).toBe(full.casesPerFamily);
  });

  it('covers rules before depth: a budget that covers every rule of the paced checks covers them all, with generated cases cut first', () => {
    const pacedRules = new Set(full.checks.filter((c) => c.kind !== 'rate-limit' && c.kind !== 'closing-bursts').flatMap((c) => c.rules));
    const choice = chooseWithinBudget(full, { maxRequests: full.pacedRequests - 200 }, PACING);
    const covered = rulesOf(full, choice.checkIds);
    for (const rule of pacedRules) expect(covered.has(rule), rule).toBe(true);
    expect(choice.casesPerFamily).toBeLessThan(full.casesPerFamily);
  });

  it('costs the rate-limit phase in windows: left out of a time budget shorter than its windows, whatever the requests allow', () => {
    const phaseIds = full.checks.filter((c) => c.kind === 'rate-limit').map((c) => c.id);
    const short = chooseWithinBudget(full, { withinMs: Math.min(...full.rateLimit.variants.map((v) => v.ms)) - 1, maxRequests: 10_000 }, PACING);
    for (const id of phaseIds) expect(short.checkIds.has(id)).toBe(false);
    expect(short.uncovered).toContain('RATE-LIMIT-RESET');
    const long = chooseWithinBudget(full, { withinMs: full.etaMs + 120_000 }, PACING);
    for (const id of phaseIds) expect(long.checkIds.has(id)).toBe(true);
  });

  it('at 60 calls a minute, --within 6m covers at least 95 of the rules a full run covers', () => {
    const choice = chooseWithinBudget(full, { withinMs: 6 * 60_000 }, PACING);
    const fullRules = new Set(full.checks.flatMap((c) => c.rules)).size;
    expect(fullRules - choice.uncovered.length).toBeGreaterThanOrEqual(95);
    expect(choice.etaMs).toBeLessThanOrEqual(6 * 60_000);
    expect(choice.leftOut.length).toBeGreaterThan(0);
  });
});

describe('the order a budget keeps: the faults each check caught in the selftest', () => {
  it('weighs a check by the fitted faults it caught: the one that catches them is kept where rules alone keep another', () => {
    // What goes first: the preflight and the monitor always, the read-back when it fits.
    const preflight = full.checks.filter((c) => c.kind === 'preflight' || c.kind === 'monitor' || c.kind === 'read-back').reduce((n, c) => n + c.requests, 0);
    // The scenario with the most requests per rule: rules alone rank it last.
    const scenarios = full.checks.filter((c) => c.kind === 'scenario' && c.skip === undefined && (c.shared ?? []).length === 0);
    const costly = scenarios.reduce((a, b) => (b.requests / b.rules.length > a.requests / a.rules.length ? b : a));
    const budget = { maxRequests: preflight + costly.requests };
    expect(chooseWithinBudget(full, budget, PACING, {}).checkIds.has(costly.id)).toBe(false);
    expect(chooseWithinBudget(full, budget, PACING, { [costly.id]: Array.from({ length: 60 }, (_, i) => `f${i}`) }).checkIds.has(costly.id)).toBe(true);
  });

  it('names only checks the suites have and faults of the fitted half of the catalog', () => {
    const ids = new Set(full.checks.map((c) => c.id));
    for (const [id, faults] of Object.entries(FAULT_CATCHES)) {
      expect(ids.has(id), `${id}: no such check (regenerate with scripts/fit-fault-catches.ts)`).toBe(true);
      for (const fault of faults) expect(inFitHalf(fault), `${fault} (${id})`).toBe(true);
    }
    // Each fitted fault the full selftest catches is some check's but those only generated cases catch (families
    // are weighed by their rules alone): the offset faults of DST days, and the edges a family's edge table now
    // sends in every run where a scenario sent them before: 61 of the 68 the half holds, every other of the catalog's 135.
    const fitted = FAULTS.filter((f) => inFitHalf(f.name)).map((f) => f.name);
    expect(fitted).toHaveLength(68);
    const onlyGenerated = new Set(['offset-day-granular', 'offset-wall-time-standard', 'offset-wall-time-first', 'time-2359-refused', 'leap-day-refused', 'leap-2000-refused', 'password-length-utf16']);
    expect(new Set(Object.values(FAULT_CATCHES).flat())).toEqual(new Set(fitted.filter((f) => !onlyGenerated.has(f))));
    expect(Object.keys(FAULT_CATCHES).filter((id) => id.startsWith('properties/'))).toEqual([]);
  });
});
