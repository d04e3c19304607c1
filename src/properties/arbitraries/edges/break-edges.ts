import fc from 'fast-check';
import type { RuleId } from '../../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../../family.ts';
import { breakFrame, breakPayload } from '../_internals/break-interval.ts';
import type { EdgeClass } from '../../family.ts';
import { withOffset } from './time-edges.ts';

// The edges of a break's domain (§2.4, §4.4): ISO 8601 with a ±HH:MM offset, inside its timesheet.
// A break has no zone of its own: any offset that writes its instants is valid.

/** A break from `from` to `to` seconds after the timesheet's start. */
function interval(name: string, pick: (seconds: number) => fc.Arbitrary<readonly [number, number]>, breaks?: RuleId): EdgeClass {
  return {
    name,
    ...(breaks ? { breaks } : { fields: ['start', 'end'], pack: name }),
    member: (ctx: GeneratorContext) => {
      const frame = breakFrame(ctx);
      return pick(frame.seconds).map(([from, to]): GeneratedCase => {
        const payload = breakPayload(frame, from, to);
        return { payload, label: `${to - from} s, ${String(payload.start)}..${String(payload.end)}`, ...(breaks ? { breaks } : {}) };
      });
    },
  };
}

/** A break inside its timesheet with its start broken textually. */
function broken(name: string, edit: (value: string) => string): EdgeClass {
  return {
    name,
    breaks: 'BRK-DATETIME-FORMAT',
    member: (ctx) => {
      const frame = breakFrame(ctx);
      return fc.integer({ min: 0, max: frame.seconds - 1 }).map((from) => {
        const payload = breakPayload(frame, from, from + 1);
        const start = edit(String(payload.start));
        return { payload: { ...payload, start }, label: `start ${start}`, breaks: 'BRK-DATETIME-FORMAT' as const };
      });
    },
  };
}

/** BRK-WITHIN-TIMESHEET, BRK-DATETIME-FORMAT: a length that is not whole minutes, the timesheet's own bounds, one second past each, another offset for the same instants. */
export const BREAK_EDGES: readonly EdgeClass[] = [
  interval('a break whose length is not a whole number of minutes', (s) =>
    fc.integer({ min: 0, max: Math.max(0, s - 61) }).chain((from) => fc.integer({ min: from + 61, max: Math.max(from + 61, Math.min(s, from + 3600)) }).filter((to) => (to - from) % 60 !== 0).map((to) => [from, to] as const)),
  ),
  interval("a break from the timesheet's start to its end (both bounds)", (s) => fc.constant([0, s] as const)),
  {
    name: 'a break written with an offset other than the company timezone\'s (UTC, or 14 hours ahead): the same instants',
    fields: ['start', 'end'],
    pack: 'another offset',
    member: (ctx) => {
      const frame = breakFrame(ctx);
      return fc.tuple(fc.integer({ min: 0, max: frame.seconds - 1 }), fc.constantFrom(0, 14 * 60, -12 * 60)).map(([from, offset]) => {
        const to = Math.min(frame.seconds, from + 900);
        const payload = { ...breakPayload(frame, from, to), start: withOffset(frame.start + from * 1000, offset), end: withOffset(frame.start + to * 1000, offset) };
        return { payload, label: `${String(payload.start)}..${String(payload.end)}` };
      });
    },
  },
  interval('a break that starts one second before its timesheet', (s) => fc.integer({ min: 1, max: s }).map((to) => [-1, to] as const), 'BRK-WITHIN-TIMESHEET'),
  interval('a break that ends one second after its timesheet', (s) => fc.integer({ min: 0, max: s }).map((from) => [from, s + 1] as const), 'BRK-WITHIN-TIMESHEET'),
  broken('a break start without an offset (naive local time)', (v) => v.slice(0, 19)),
  broken('a break start with an offset without its colon (±HHMM)', (v) => `${v.slice(0, 19)}${v.slice(19).replace(':', '')}`),
];
