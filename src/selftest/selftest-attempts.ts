import type { RunReport } from '../report/model.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { RuleId } from '../contract/rules.ts';

/**
 * The rate-limit checks a clean certification left unjudged ("rate-limit/sliding errored: the
 * straddle missed …"), when nothing else in it failed or errored: the bursts' timing was not
 * certain, which a machine whose cores are busy can cause at the embedded one-second window. Empty
 * when every check was judged, or when anything else failed or errored: a failure is a verdict and
 * is never certified again.
 */
export function burstsUnjudged(reports: readonly RunReport[]): string[] {
  const bad = reports.flatMap((report) => report.checks.filter((c) => c.status === 'failed' || c.status === 'errored'));
  if (!bad.every((c) => c.status === 'errored' && c.id.startsWith('rate-limit/'))) return [];
  return bad.map((c) => `${c.id} errored: ${c.reason ?? ''}`);
}

/**
 * The checks that left a burst fault's rule without a verdict: a check naming the rule errored, or a
 * rate-limit check did (an errored boundary burst leaves the reset and sliding checks skipped, "the
 * boundary burst reached no verdict"). Asked only of a missed fault: a caught one is never
 * certified again. Empty when every one of them was judged.
 */
export function ruleUnjudged(rule: RuleId, report: RunReport): string[] {
  return report.checks.filter((c) => c.status === 'errored' && (c.rules.includes(rule) || c.id.startsWith('rate-limit/'))).map((c) => `${c.id} errored: ${c.reason ?? ''}`);
}

/** How much longer the second certification's burst window is than the first's (at most a minute, §8's own). */
export const SECOND_WINDOW_FACTOR = 4;

/** The limit the second certification's bursts meet: the same calls in a window SECOND_WINDOW_FACTOR times as long, at most a minute. */
export function secondBurstRateLimit(first: RateLimitSetting): RateLimitSetting {
  return { limit: first.limit, windowMs: Math.min(first.windowMs * SECOND_WINDOW_FACTOR, 60_000) };
}

/** Why a certification was made twice, and how the second met the bursts. */
export interface SecondAttempt {
  /** What the first certification left unjudged (burstsUnjudged, ruleUnjudged). */
  readonly firstUnjudged: readonly string[];
  readonly burstRateLimit: RateLimitSetting;
}

/**
 * Certifies (bursts at `burstRateLimit`), and once more when `unjudged` names what the first
 * certification could not judge, with the bursts in a longer window (secondBurstRateLimit), where
 * their timing holds on a busy machine. The one mechanism for every certification with bursts: the
 * clean server and a sparse seed (`unjudged`: burstsUnjudged, only rate-limit checks errored and
 * nothing failed), a missed burst fault (ruleUnjudged). The second certification stands, whatever it
 * finds; `second` says it was made, why, and at what window, for the selftest's output. A limiter
 * that conforms at one window conforms at another, and a fault of it shows at either.
 */
export async function onceMoreIfUnjudged<T>(
  certify: (burstRateLimit: RateLimitSetting) => Promise<T>,
  unjudged: (value: T) => readonly string[],
  burstRateLimit: RateLimitSetting,
): Promise<{ readonly value: T; readonly second?: SecondAttempt }> {
  const first = await certify(burstRateLimit);
  const firstUnjudged = unjudged(first);
  if (firstUnjudged.length === 0) return { value: first };
  const second = secondBurstRateLimit(burstRateLimit);
  return { value: await certify(second), second: { firstUnjudged, burstRateLimit: second } };
}
