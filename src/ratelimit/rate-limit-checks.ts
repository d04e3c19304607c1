import type { RuleId } from '../contract/rules.ts';
import type { Profile } from '../profile/profile.ts';
import { CheckOutcome } from './check-outcome.ts';

/** The rules a rate-limit check names only when the profile asks for them: the rule, the profile key, and whether it is set. */
export const PROFILE_RULES_OF_CHECK: Readonly<Partial<Record<string, { readonly rule: RuleId; readonly key: string; readonly asserted: (profile: Profile) => boolean }>>> = {
  'rate-limit/boundary': { rule: 'RATE-LIMIT-BODY', key: 'rate_limit.body_text', asserted: (profile) => profile.rate_limit.body_text !== undefined },
};

/** The rate-limit checks, by ID, with the rules each one names: the phase's (PHASE_CHECK_IDS) and the refused calls'. */
export const RATE_LIMIT_CHECKS = {
  'rate-limit/boundary': { title: 'A burst of limit + K calls after a quiet window: exactly limit served, the rest 429', rules: ['RATE-LIMIT-CAP', 'RATE-LIMIT-QUOTA', 'RATE-LIMIT-STATUS'] },
  'rate-limit/reset': { title: 'Once the window since the served calls has passed, calls are served again', rules: ['RATE-LIMIT-RESET'] },
  'rate-limit/sliding': { title: 'No window-length interval serves more than limit calls, across a fixed-window reset at the first call or at the clock', rules: ['RATE-LIMIT-SLIDING'] },
  'rate-limit/page-size-under-load': { title: 'page_size 100, 101, 1000, 0 and -1, each asked several times at once: never more than 100 items, the same answer for each copy', rules: ['PAG-PAGE-SIZE-MAX'] },
  'rate-limit/refused-calls': { title: 'limit + 1 calls without a token, then limit + 1 with one wrong token, each burst at once: a 429 among them, not 401 for ever', rules: ['RATE-LIMIT-REFUSED'] },
} as const satisfies Record<string, { title: string; rules: readonly RuleId[] }>;

export type RateLimitCheckId = keyof typeof RATE_LIMIT_CHECKS;

/** The check of refused calls (refused-calls.ts): not the phase's; its bursts go after the run's last paced call. */
export const REFUSED_CALLS_CHECK_ID = 'rate-limit/refused-calls' satisfies RateLimitCheckId;

/** The checks of the rate-limit phase (phase.ts): every rate-limit check but the refused calls'. */
export type PhaseCheckId = Exclude<RateLimitCheckId, typeof REFUSED_CALLS_CHECK_ID>;
export const PHASE_CHECK_IDS = (Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).filter((id): id is PhaseCheckId => id !== REFUSED_CALLS_CHECK_ID);

/**
 * The outcome a rate-limit check starts from: its title, the rules it names (with the profile's
 * conditional rule when the profile sets its key) and its replay command.
 */
export function rateLimitOutcome(id: RateLimitCheckId, run: { readonly profile: Profile; readonly replay: (checkId: string) => string }): CheckOutcome {
  const { title, rules } = RATE_LIMIT_CHECKS[id];
  const conditional = PROFILE_RULES_OF_CHECK[id];
  const named: RuleId[] = conditional?.asserted(run.profile) ? [...rules, conditional.rule] : [...rules];
  return new CheckOutcome(id, title, named, run.replay(id));
}
