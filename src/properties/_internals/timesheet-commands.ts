import { shiftYmdDate } from '../../contract/formats/ymd-date.ts';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { DateRangeEnds } from '../../profile/readings.ts';
import { readCreatedId } from '../../records/created-id.ts';
import { createdFields, differences } from '../../records/written-record.ts';
import { affordable, answered, listed, ok, sameId, sent, SequenceFailure, SequencePrecondition, userVar, type RequestBudget, type SequenceModel, type SequenceReal, type SequenceTimesheet, type SequenceUser } from './sequence-model.ts';

/**
 * The timesheet commands of the stateful family (§2.3, §4.3, §4.6): a timesheet created for one of
 * the sequence's users on one of its days, and a `date_range` read around one of them. The model is
 * every timesheet the sequence created; a range read must list those strictly inside it, leave out
 * those at least two days outside it, list or leave out those on its end dates as the profile's
 * `date_range_ends` says (either: not judged), and show each one it lists as written.
 */

/** The days a sequence writes timesheets on: three, three days apart, so a range one day either side of one leaves the others two days outside. */
export const SEQUENCE_DAY_SPACING = 3;
const NOTES = ['Shift 🕒 done', 'Rene\u0301e covered', '李 signed off', "O'Brien & <R&D>"];
const MILEAGES = [0.25, 12.75, 1000.5];
const sheetVar = (t: Pick<SequenceTimesheet, 'n'>) => `{{ vars.timesheet_${t.n} }}`;


/** Noon (and half past one) on `day` in `zone`, with that zone's offset then: the same calendar date in the company's zone and in UTC. */
function noon(day: string, zone: string, time: string): string {
  return DateTime.fromISO(`${day}T${time}`, { zone }).toISO({ suppressMilliseconds: true, includeOffset: true }) as string;
}

/** POST /timesheets for one of the sequence's users at noon of one of its days, with notes and a mileage sometimes (values a store may change). */
export class CreateTimesheet implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly userIndex: number,
    readonly dayIndex: number,
    readonly extra: Readonly<Record<string, unknown>>,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.users.length > 0 && m.timesheets.length < 3;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const user = m.users[this.userIndex % m.users.length] as SequenceUser;
    const day = r.days[this.dayIndex % r.days.length] as string;
    const n = m.timesheets.length + 1;
    const body = { user_id: user.id, start: noon(day, r.companyTimezone, '12:00'), end: noon(day, r.companyTimezone, '13:30'), ...this.extra };
    const exchange = await sent(r, { method: 'POST', path: '/timesheets', json: body });
    const read = readCreatedId(exchange.response?.json, r.reading.idPointer === undefined ? {} : { id_pointer: r.reading.idPointer }, 'timesheet');
    if (!ok(exchange) || read.kind !== 'id') throw new SequencePrecondition(`a valid timesheet create was ${ok(exchange) ? 'answered without an ID' : `refused (${answered(exchange)})`}`);
    m.timesheets.push({ n, id: read.id, day, fields: createdFields('timesheet', body) });
    r.steps.push({
      name: `create timesheet ${n} for user ${user.n} on ${day}`,
      request: { method: 'POST', path: '/timesheets', json: { ...body, user_id: userVar(user) } },
      expect: { status: 'success' },
      capture: { [`timesheet_${n}`]: { from: 'created_id' } },
    });
  }
  toString = () => `timesheet(${this.userIndex}, day ${this.dayIndex}, ${JSON.stringify(this.extra)})`;
}

/** Where a range read puts its ends around a timesheet's day D: one day either side, or D as its first or last day. */
export type RangeShape = 'around' | 'first-end' | 'last-end';
const RANGES: Record<RangeShape, readonly [number, number]> = { around: [-1, 1], 'first-end': [0, 1], 'last-end': [-1, 0] };

/** What a range says of a day: inside it, on one of its ends, or outside (by how many days). */
function placeOf(day: string, first: string, last: string): { kind: 'inside' } | { kind: 'end' } | { kind: 'outside'; by: number } {
  if (day > first && day < last) return { kind: 'inside' };
  if (day === first || day === last) return { kind: 'end' };
  const by = day < first ? DateTime.fromISO(first).diff(DateTime.fromISO(day), 'days').days : DateTime.fromISO(day).diff(DateTime.fromISO(last), 'days').days;
  return { kind: 'outside', by };
}

/** Whether a timesheet on `day` must be listed by the range: yes, no, or not judged (an end under `either`, or one day outside). */
export function expectedInRange(day: string, first: string, last: string, ends: DateRangeEnds): boolean | null {
  const place = placeOf(day, first, last);
  if (place.kind === 'inside') return true;
  if (place.kind === 'end') return ends === 'either' ? null : ends === 'inclusive';
  return place.by >= 2 ? false : null;
}

/** GET /timesheets with a date_range around one of the sequence's timesheets (page_size 100): membership and values as the model has them. */
export class ReadRange implements fc.AsyncCommand<SequenceModel, SequenceReal> {
  constructor(
    readonly budget: RequestBudget,
    readonly index: number,
    readonly shape: RangeShape,
  ) {}
  check = (m: Readonly<SequenceModel>) => affordable(this.budget) && m.timesheets.length > 0;
  async run(m: SequenceModel, r: SequenceReal): Promise<void> {
    const around = m.timesheets[this.index % m.timesheets.length] as SequenceTimesheet;
    const [from, to] = RANGES[this.shape];
    const [first, last] = [shiftYmdDate(around.day, from), shiftYmdDate(around.day, to)];
    const query = { date_range: `${first},${last}`, page_size: 100 };
    const exchange = await sent(r, { method: 'GET', path: '/timesheets', query });
    if (!ok(exchange)) throw new SequencePrecondition(`a list of timesheets with date_range=${first},${last} was not served (${answered(exchange)})`);
    const items = listed(exchange, r.reading);
    // More than a page: a timesheet not on it may be on the next, so only what is listed is judged.
    const whole = items.length < 100;
    const judged = m.timesheets.map((t) => ({ t, want: expectedInRange(t.day, first, last, r.dateRangeEnds), item: items.find((i) => sameId(i, t.id)) }));
    const include = judged.filter((j) => j.want === true).map((j) => sheetVar(j.t));
    const exclude = judged.filter((j) => j.want === false).map((j) => sheetVar(j.t));
    r.steps.push({
      name: `list timesheets with date_range ${first},${last}`,
      check: 'list-membership',
      args: { path: '/timesheets', query: { date_range: `${first},${last}` }, ...(include.length > 0 ? { include } : {}), ...(exclude.length > 0 ? { exclude } : {}), rule: 'DATE-RANGE' },
    });
    for (const { t, want, item } of judged) {
      const where = `timesheet ${t.n} (${String(t.id)}, on ${t.day})`;
      if (want === true && item === undefined && whole) throw new SequenceFailure('DATE-RANGE', `date_range=${first},${last} lists ${where}: ${t.day === first || t.day === last ? `an end date, and the profile reads the ends as ${r.dateRangeEnds}` : 'strictly inside the range'} (§4.6)`, 'not listed', exchange);
      if (want === false && item !== undefined) throw new SequenceFailure('DATE-RANGE', `date_range=${first},${last} leaves out ${where}: ${t.day === first || t.day === last ? `an end date, and the profile reads the ends as ${r.dateRangeEnds}` : 'outside the range'} (§4.6)`, 'listed', exchange);
      if (item === undefined) continue;
      const diffs = differences({ kind: 'timesheet', id: String(t.id), fields: t.fields, writtenBy: [] }, item, r.reading);
      const differing = diffs[0];
      if (differing) throw new SequenceFailure(differing.rule, `${where}: ${diffs.map((d) => d.expected).join('; ')}`, `${diffs.map((d) => `${d.field} ${d.actual}`).join(', ')} in a range read`, exchange);
    }
  }
  toString = () => `range(${this.index}, ${this.shape})`;
}

/** The arbitraries of the timesheet commands, sharing the family's request budget. */
export function timesheetCommands(budget: RequestBudget): fc.Arbitrary<fc.AsyncCommand<SequenceModel, SequenceReal>>[] {
  const extra = fc.record({ notes: fc.constantFrom(...NOTES), mileage: fc.constantFrom(...MILEAGES) }, { requiredKeys: [] });
  return [
    fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: 2 }), extra).map(([u, d, e]) => new CreateTimesheet(budget, u, d, e)),
    fc.tuple(fc.nat({ max: 2 }), fc.constantFrom<RangeShape>('around', 'first-end', 'last-end')).map(([i, shape]) => new ReadRange(budget, i, shape)),
  ];
}
