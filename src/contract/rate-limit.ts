import { formatDuration } from '../duration.ts';
import { UsageError } from '../errors.ts';

/** A rate limit: `limit` calls within any window of `windowMs` (§8: 60 calls within any one-minute window). */
export interface RateLimitSetting {
  readonly limit: number;
  readonly windowMs: number;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;

/** "60 calls per 1.0 s": a rate limit for people. */
export function formatRateLimit(setting: RateLimitSetting): string {
  return `${setting.limit} calls per ${formatDuration(setting.windowMs)}`;
}

/**
 * Parses `60/60s`, `60/1m`, `600/1s`, or `off` (null).
 * @throws UsageError that says the expected form; its caller names the flag (`--rate-limit: …`).
 */
export function parseRateLimit(text: string): RateLimitSetting | null {
  if (text === 'off') return null;
  const parts = text.split('/');
  const [count, window] = parts;
  const limit = Number(count);
  const match = parts.length === 2 && window ? DURATION.exec(window) : null;
  if (!/^\d+$/.test(count ?? '') || !Number.isSafeInteger(limit) || limit < 1 || !match) {
    throw new UsageError(`rate limit "${text}" is not of the form LIMIT/WINDOW, e.g. 60/60s, 60/1m or 600/1s`);
  }
  const unit = match[2] ?? 's';
  const windowMs = Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  if (windowMs <= 0) throw new UsageError(`rate limit "${text}" has an empty window: give LIMIT/WINDOW with a window over 0, e.g. 60/60s`);
  return { limit, windowMs };
}
