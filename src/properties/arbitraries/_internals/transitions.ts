import { IANAZone } from 'luxon';

const DAY_MS = 86_400_000;
const cache = new Map<string, readonly number[]>();

/**
 * The instants (UTC ms, whole seconds) at which `zone` changes its UTC offset from 1 January of
 * `fromYear` to 31 December of `toYear`: DST starts and ends, and permanent changes.
 * Scans in steps of `stepDays` and bisects each change to the second; memoized per zone and range.
 * Two changes closer than `stepDays` would cancel out: no zone of ZONES has such a pair in 2015–2030
 * (a unit test compares against a one-day scan).
 */
export function zoneTransitions(zone: string, fromYear: number, toYear: number, stepDays = 14): readonly number[] {
  const key = `${zone}|${fromYear}|${toYear}|${stepDays}`;
  const known = cache.get(key);
  if (known) return known;
  const tz = IANAZone.create(zone);
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1);
  const step = stepDays * DAY_MS;
  const found: number[] = [];
  let before = start;
  let offset = tz.offset(before);
  while (before < end) {
    const after = Math.min(before + step, end);
    const next = tz.offset(after);
    if (next !== offset) {
      let lo = before; // offset === `offset`
      let hi = after; // offset !== `offset`
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2000) * 1000;
        if (mid <= lo || mid >= hi) break;
        if (tz.offset(mid) === offset) lo = mid;
        else hi = mid;
      }
      found.push(Math.ceil(hi / 1000) * 1000);
      offset = next;
    }
    before = after;
  }
  cache.set(key, found);
  return found;
}
