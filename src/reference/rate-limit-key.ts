import { FIRST_COMPANY, type Company } from './companies/company.ts';

/**
 * §8 says "60 calls within any one-minute window" and not whose calls: `shared` counts every
 * authenticated call in one window, whichever company's token made it (a limit per API, or per
 * server); `per-token` gives each company's token a window of its own (a limit per key).
 */
export type RateLimitWindows = 'shared' | 'per-token';
export const RATE_LIMIT_WINDOWS: readonly RateLimitWindows[] = ['shared', 'per-token'];

/**
 * The key a call counts under: `token` for an authenticated call (every company's under `shared`,
 * the first company's under `per-token`, `token:N` for company N's), `anonymous:<ip>` for a call no
 * token authenticates.
 */
export function rateLimitKey(company: Company | null, windows: RateLimitWindows, remoteAddress: string | undefined): string {
  if (company === null) return `anonymous:${remoteAddress ?? ''}`;
  return windows === 'shared' || company.id === FIRST_COMPANY ? 'token' : `token:${company.id}`;
}
