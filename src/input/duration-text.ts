/** Milliseconds as a user types a duration (what src/duration.ts's parseDuration reads): `10m`, `90s`, `1500ms`. */
export function durationText(ms: number): string {
  if (ms > 0 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms > 0 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
