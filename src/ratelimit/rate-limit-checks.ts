import type { RuleId } from '../contract/rules.ts';
import type { Profile } from '../profile/profile.ts';
import { CheckOutcome } from './check-outcome.ts';

/** The rules a rate-limit check names only when the profile asks for them: the rule, the profile key, and whether it is set. */
export const PROFILE_RULES_OF_CHECK: Readonly<Partial<Record<string, { readonly rule: RuleId; readonly key: string; readonly asserted: (profile: Profile) => boolean }>>> = {
  'rate-limit/boundary': { rule: 'RATE-LIMIT-BODY', key: 'rate_limit.body_text', asserted: (profile) => profile.rate_limit.body_text !== undefined },
};

/** The rate-limit checks, by ID, with the rules each one names. */
export const RATE_LIMIT_CHECKS = {
  'rate-limit/boundary': { title: 'A burst of limit + K calls after a quiet window: exactly limit served, the rest 429', rules: ['RATE-LIMIT-CAP', 'RATE-LIMIT-QUOTA', 'RATE-LIMIT-STATUS'] },
  'rate-limit/reset': { title: 'Once the window since the served calls has passed, calls are served again', rules: ['RATE-LIMIT-RESET'] },
  'rate-limit/sliding': { title: 'No window-length interval serves more than limit calls, across a fixed-window reset at the first call or at the clock', rules: ['RATE-LIMIT-SLIDING'] },
  'rate-limit/page-size-under-load': { title: 'page_size 100, 101, 1000, 0 and -1, each asked several times at once: never more than 100 items, the same answer for each copy', rules: ['PAG-PAGE-SIZE-MAX'] },
} as const satisfies Record<string, { title: string; rules: readonly RuleId[] }>;

export type RateLimitCheckId = keyof typeof RATE_LIMIT_CHECKS;

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
