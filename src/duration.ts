/** Parses `60s`, `1m`, `500ms`, `2.5s` into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text.trim());
  if (!match) return null;
  const unit = match[2] === 'ms' ? 1 : match[2] === 's' ? 1000 : 60_000;
  return Number(match[1]) * unit;
}

/** Formats milliseconds for people: `850 ms`, `12.3 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}
