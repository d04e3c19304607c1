import type { Exchange } from '../client/exchange.ts';

/**
 * Calls the target had already counted against the token before ours, as its rate-limit headers
 * say after `exchange` (the last of `ours` calls): `X-RateLimit-Limit` − `X-RateLimit-Remaining` −
 * `ours`. Zero when the headers are absent or make no sense. A run started right after `init`, or
 * after another run, finds the window partly used; the pacer counts those calls too (§8: the limit
 * is per window, whoever made the calls).
 */
export function rateLimitBacklog(exchange: Exchange | undefined, ours: number): number {
  const headers = exchange?.response?.headers;
  const limit = Number(headers?.['x-ratelimit-limit']);
  const remaining = Number(headers?.['x-ratelimit-remaining']);
  if (!Number.isInteger(limit) || !Number.isInteger(remaining) || limit <= 0 || remaining < 0 || remaining > limit) return 0;
  return Math.max(0, limit - remaining - ours);
}
