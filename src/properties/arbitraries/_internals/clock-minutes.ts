const pad = (n: number) => String(n).padStart(2, '0');

/** Formats minutes since midnight as `HH:mm`. */
export function formatClockMinutes(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
