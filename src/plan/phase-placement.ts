import { CHECKS_WITHOUT_TOKEN } from '../checks/registry.ts';
import { pacedAllowed } from '../client/pacer.ts';
import type { Profile } from '../profile/profile.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import { plannedRateLimitPhase } from '../ratelimit/planned-phase.ts';
import type { RateLimitCheckId } from '../ratelimit/rate-limit-checks.ts';
import type { PhaseVariant } from './run-plan.ts';

// Where the rate-limit phase goes among the paced checks, and the smaller phases a budget may keep.

/** The checks a budget adds to the phase one step at a time (PhaseVariant). */
const PHASE_STEPS: readonly (readonly RateLimitCheckId[])[] = [['rate-limit/boundary', 'rate-limit/reset'], ['rate-limit/sliding'], ['rate-limit/page-size-under-load']];

/** The smaller phases a budget may keep instead (RunPlan.rateLimit.variants), each with what it costs where the plan starts it, alone and beside the paced checks. */
export function phaseVariants(profile: Profile, selected: (id: RateLimitCheckId) => boolean, pacedAfter: number): PhaseVariant[] {
  const variants: PhaseVariant[] = [];
  let ids: RateLimitCheckId[] = [];
  for (const step of PHASE_STEPS) {
    const added = step.filter(selected);
    if (added.length === 0) continue;
    ids = [...ids, ...added];
    const inVariant = new Set(ids);
    const chosen = (id: RateLimitCheckId) => inVariant.has(id);
    const here = plannedRateLimitPhase(profile, chosen, pacedAfter);
    const alone = plannedRateLimitPhase(profile, chosen);
    // Beside a window of paced requests and no more: nothing carried; beside any number: all it can carry.
    const uncarried = plannedRateLimitPhase(profile, chosen, pacedAllowed(profile.rate_limit.limit));
    const room = plannedRateLimitPhase(profile, chosen, Number.MAX_SAFE_INTEGER).carried;
    variants.push({ ids, requests: here.requests, ms: here.ms, alone: { requests: alone.requests, ms: alone.ms }, beside: { requests: uncarried.requests + uncarried.carried, spanMs: uncarried.spanMs, room } });
  }
  return variants;
}

/**
 * Where the rate-limit phase starts (RunPlan.rateLimit.at), given each paced unit's planned requests
 * (scenarios, then families), and the paced requests after it. It needs a window of them to fill
 * the pacer's window first, and then carries some in its own: with fewer than a window and a half
 * after the start, it runs alone after them all.
 */
export function phaseStart(scenarios: readonly LoadedScenario[], unitRequests: readonly number[], profile: Profile): { at: number | null; pacedAfter: number } {
  const at = scenarios.reduce((last, s, i) => (sendsWithoutToken(s) ? i + 1 : last), 0);
  const pacedAfter = unitRequests.slice(at).reduce((a, b) => a + b, 0);
  return pacedAfter >= pacedToRunBeside(pacedAllowed(profile.rate_limit.limit)) ? { at, pacedAfter } : { at: null, pacedAfter: 0 };
}

/**
 * The paced requests after its start the rate-limit phase needs to run beside them, for a pacer
 * that lets `allowed` count at once: a window and a half of them (fewer: it runs alone, after them all).
 */
export function pacedToRunBeside(allowed: number): number {
  return Math.ceil(allowed * 1.5);
}

/** Whether a scenario sends a request without the run's token, or with another one (auth: none, or a raw header; a built-in check such as plain-http). */
function sendsWithoutToken(loaded: LoadedScenario): boolean {
  const found = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(found);
    if (value === null || typeof value !== 'object') return false;
    const { auth, check } = value as { auth?: unknown; check?: unknown };
    if (auth !== undefined && auth !== 'token' && auth !== 'raw-token' && auth !== 'bearer-token') return true;
    if (typeof check === 'string' && CHECKS_WITHOUT_TOKEN.has(check)) return true;
    return Object.values(value).some(found);
  };
  return found(loaded.scenario);
}
