/**
 * A Retry-After value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from `nowMs`;
 * null when absent or not one of the two forms. A date in the past is 0.
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and GMT (IMF-fixdate, or the obsolete RFC 850 and asctime forms).
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
