import type { BuiltinCheck } from './context.ts';
import type { BuiltinCheckName } from './names.ts';
import { durationMatches } from './duration-matches.ts';
import { headParity } from './head-parity.ts';
import { listMembership } from './list-membership.ts';
import { pageSizeLimit } from './page-size-limit.ts';
import { paginationWalk } from './pagination-walk.ts';
import { plainHttp } from './plain-http.ts';
import { sorted } from './sorted.ts';
import { webhookNotifications } from './webhook-notifications.ts';
import type { Profile } from '../profile/profile.ts';
import { SECOND_COMPANY_WEBHOOK_REQUESTS, secondCompanySubscribes } from './webhook-companies.ts';

/** The built-in checks by name (the names scenarios use). */
export const BUILTIN_CHECKS: Readonly<Record<BuiltinCheckName, BuiltinCheck>> = {
  'plain-http': plainHttp,
  'pagination-walk': paginationWalk,
  'page-size-limit': pageSizeLimit,
  sorted,
  'head-parity': headParity,
  'duration-matches': durationMatches,
  'list-membership': listMembership,
  'webhook-notifications': webhookNotifications,
};

/** The built-in checks that send calls without the run's token (a limiter may count those elsewhere, or not at all). */
export const CHECKS_WITHOUT_TOKEN: ReadonlySet<string> = new Set<BuiltinCheckName>(['plain-http']);

/** Requests a built-in check is expected to make, for the run's plan. */
export function estimateCheckRequests(name: string, args: Readonly<Record<string, unknown>>): number {
  switch (name) {
    case 'plain-http':
      return 3;
    case 'pagination-walk':
      return 6;
    case 'page-size-limit':
      return Array.isArray(args.sizes) ? args.sizes.length : 2;
    case 'head-parity':
      return 2;
    case 'list-membership':
      return 2;
    case 'sorted':
      return 1;
    case 'webhook-notifications':
      // subscribe (with a subscribe extension), create and edit, unsubscribe, create and edit
      return 6;
    default:
      return 0;
  }
}

/**
 * Of a built-in check's requests (estimateCheckRequests adds them), those it sends with the second
 * company's token (profile second_company): the webhook check's, where that company subscribes a
 * path of the sink of its own (webhook-companies.ts).
 */
export function estimateSecondTokenRequests(name: string, profile: Profile): number {
  return name === 'webhook-notifications' && secondCompanySubscribes(profile) ? SECOND_COMPANY_WEBHOOK_REQUESTS : 0;
}

/**
 * Time a built-in check waits beyond its requests, for the run's plan: the webhook check waits for
 * the notifications it caused (they usually come at once) and then stays for the quiet period.
 */
export function estimateCheckWaitMs(name: string, profile: Profile): number {
  if (name !== 'webhook-notifications' || !profile.webhook?.sink) return 0;
  return profile.webhook.quiet_period ?? profile.webhook.delivery_within;
}
