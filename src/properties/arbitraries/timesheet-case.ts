import fc from 'fast-check';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { describeTimesheet, TIMESHEET_YEARS, timesheetPayload, type ClockOut, type EndShape } from './_internals/timesheet-payload.ts';
import { ZONES } from './_internals/zones.ts';
import { zoneInstant } from './zone-instant.ts';
import { InternalError } from '../../errors.ts';

export interface TimesheetCaseOptions {
  /**
   * How often `start` comes with an explicit clock_in_timezone: `sometimes` (half the cases, the
   * default) or `mostly` (four in five: the offset checks a day-granular server gets wrong).
   */
  readonly explicitZones?: 'sometimes' | 'mostly';
  /**
   * Each case gives a timezone for every datetime it sends (clock_out_timezone too when end is
   * set) or for none, so a refusal points at one offset rule. Default false: mixed cases too.
   */
  readonly consistentZones?: boolean;
  /** Whether `end` may be null (an open timesheet, TS-END-NULLABLE). Default true. */
  readonly nullEnd?: boolean;
}

const HOUR_S = 3600;
const NOTES = ['Stocktake', 'Covered for Max', 'Site visit — Zürich', 'Night shift; alarm test'];
/** Text a storage layer is likely to change (the read-back judges what comes back): an emoji, a combining mark, CJK, characters HTML escapes. */
const NOTE_EDGES = ['Clocked out 🕒', 'Rene\u0301e covered', '李 signed off', "O'Brien & <R&D>", 'Ünïcödé ß ø ñ'];
/** Distances with a fraction and of different digit counts (§2.3: a float). */
const MILEAGE_EDGES = [0, 0.01, 0.25, 12.75, 99.99, 1000.5, 12345.67];

/**
 * A valid timesheet create payload (spec §2.3, §4.3) as a GeneratedCase: user_id from the context's
 * active users; start in 2015–2024, either with clock_in_timezone (a real zone, the offset that
 * zone's at that instant) or without (the offset the company timezone's), biased toward DST
 * transition days (see zoneInstant); end after start by one minute to 12 hours, null, or absent;
 * clock_out_timezone sometimes (end's offset then follows it, else the company timezone); job_id and
 * task_id only when the context has them; notes and mileage sometimes, among them their edges (text
 * outside ASCII and characters HTML escapes; decimals of several digit counts).
 */
export function timesheetCase(ctx: GeneratorContext, options: TimesheetCaseOptions = {}): fc.Arbitrary<GeneratedCase> {
  const users = ctx.activeUserIds;
  if (users.length === 0) throw new InternalError('timesheetCase needs at least one active user ID in the context (the run and profileContext require fixtures.active_user_ids)');
  const company = ctx.companyTimezone;
  const explicitWeight = options.explicitZones === 'mostly' ? 4 : 1;
  const start = fc.oneof(
    { weight: explicitWeight, arbitrary: zoneInstant(TIMESHEET_YEARS).map((i) => ({ instant: i, explicit: true })) },
    { weight: 1, arbitrary: zoneInstant({ ...TIMESHEET_YEARS, zones: [company] }).map((i) => ({ instant: i, explicit: false })) },
  );
  const ends = [
    { weight: 1, arbitrary: fc.constant<EndShape>({ kind: 'absent' }) },
    ...(options.nullEnd === false ? [] : [{ weight: 1, arbitrary: fc.constant<EndShape>({ kind: 'null' }) }]),
    { weight: 4, arbitrary: fc.integer({ min: 60, max: 12 * HOUR_S }).map((seconds): EndShape => ({ kind: 'after', seconds })) },
  ];
  const end = fc.oneof(...ends);
  const given = [fc.constant<ClockOut>({ kind: 'same' }), fc.constantFrom(...ZONES).map((zone): ClockOut => ({ kind: 'zone', zone }))] as const;
  const none = [fc.constant<ClockOut>({ kind: 'absent' }), fc.constant<ClockOut>({ kind: 'null' })] as const;
  const clockOut = (explicit: boolean): fc.Arbitrary<ClockOut> =>
    options.consistentZones ? fc.oneof(...(explicit ? given : none)) : fc.oneof(...none, ...given);
  return fc
    .record({
      userId: fc.constantFrom(...users),
      start,
      end,
      clockOutExplicit: clockOut(true),
      clockOutDefaulted: clockOut(false),
      optional: fc.record(
        {
          job_id: ctx.jobId !== undefined ? fc.constant(ctx.jobId) : fc.constant(undefined),
          task_id: ctx.taskId !== undefined ? fc.constant(ctx.taskId) : fc.constant(undefined),
          notes: fc.constantFrom(...NOTES, ...NOTE_EDGES),
          mileage: fc.oneof({ weight: 2, arbitrary: fc.integer({ min: 0, max: 5000 }).map((tenths) => tenths / 10) }, { weight: 1, arbitrary: fc.constantFrom(...MILEAGE_EDGES) }),
        },
        { requiredKeys: [] },
      ),
    })
    .map(({ userId, start, end, clockOutExplicit, clockOutDefaulted, optional }): GeneratedCase => {
      const clockOut = start.explicit ? clockOutExplicit : clockOutDefaulted;
      const payload = timesheetPayload(company, userId, start.instant, start.explicit, end, clockOut, optional);
      return { payload, label: `valid: ${describeTimesheet(payload, company)}` };
    });
}
