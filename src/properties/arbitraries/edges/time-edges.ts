import fc from 'fast-check';
import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import { formatOffsetDateTime } from '../../../contract/formats/index.ts';
import { zoneTransitions } from '../_internals/transitions.ts';

// Time's hardest edges, on past dates under long-settled zone rules: the hour a spring-forward day
// skips and the hour a fall-back day repeats.

/** Zones whose DST rules were settled long before 2015–2019, both hemispheres, a 30-minute change among them. */
export const SETTLED_DST_ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/St_Johns', 'Europe/London', 'Europe/Berlin', 'Australia/Sydney', 'Australia/Lord_Howe', 'Pacific/Auckland'] as const;
const YEARS = { from: 2015, to: 2019 } as const;

/** An offset change of a zone: when (UTC ms), and its offsets before and after (minutes). */
export interface OffsetChange {
  readonly zone: string;
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

/** The zone's offset changes in 2015–2019 that go `forward` (spring: the offset grows) or back (fall). */
export function offsetChanges(zone: string, forward: boolean): OffsetChange[] {
  const tz = IANAZone.create(zone);
  return zoneTransitions(zone, YEARS.from, YEARS.to)
    .map((at) => ({ zone, at, before: tz.offset(at - 1000), after: tz.offset(at) }))
    .filter((c) => (c.after > c.before) === forward && c.after !== c.before);
}

/** `YYYY-MM-DDTHH:MM:SS±HH:MM` of `millis` written with a fixed offset (minutes). */
export function withOffset(millis: number, offset: number): string {
  return formatOffsetDateTime(DateTime.fromMillis(millis, { zone: FixedOffsetZone.instance(offset) }));
}

/** A wall time in the hour a fall-back day repeats, as the instant of its first reading; `second` adds the change, giving the other instant with the same wall time. */
export interface RepeatedWallTime {
  readonly change: OffsetChange;
  /** The instant read with the offset before the change (UTC ms). */
  readonly first: number;
  /** The same wall time read with the offset after the change (UTC ms): `first` plus the change. */
  readonly second: number;
}

/** A wall time in the hour a spring-forward day skips, written with the offset before the change: an instant after it, whose offset is then the new one. */
export interface SkippedWallTime {
  readonly change: OffsetChange;
  /** The instant the value denotes (UTC ms): past the change, by less than its size. */
  readonly millis: number;
  /** The wall time with the old offset. */
  readonly value: string;
}

/**
 * An offset change of one of `zones` (going forward, or back) and a whole number of minutes inside
 * the span it skips or repeats (at least one minute, less than the span); null when no zone has one.
 */
function intoChange(zones: readonly string[], forward: boolean): fc.Arbitrary<{ change: OffsetChange; intoMs: number }> | null {
  const changes = zones.flatMap((z) => offsetChanges(z, forward));
  if (changes.length === 0) return null;
  return fc.tuple(fc.constantFrom(...changes), fc.integer({ min: 1, max: 59 })).map(([change, minute]) => {
    const span = Math.abs(change.after - change.before) * 60_000;
    return { change, intoMs: Math.max(60_000, Math.floor((span * minute) / 60 / 60_000) * 60_000) };
  });
}

/** A wall time in the repeated hour of one of `zones`' fall-back days (zones without one are left out; none: null). */
export function repeatedWallTime(zones: readonly string[]): fc.Arbitrary<RepeatedWallTime> | null {
  return (
    intoChange(zones, false)?.map(({ change, intoMs }) => {
      const first = change.at - intoMs;
      return { change, first, second: first + (change.before - change.after) * 60_000 };
    }) ?? null
  );
}

/** A wall time a spring-forward day of one of `zones` skips, with the offset before the change (none: null). */
export function skippedWallTime(zones: readonly string[]): fc.Arbitrary<SkippedWallTime> | null {
  return intoChange(zones, true)?.map(({ change, intoMs }) => ({ change, millis: change.at + intoMs, value: withOffset(change.at + intoMs, change.before) })) ?? null;
}
