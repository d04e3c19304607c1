import fc from 'fast-check';
import { breakCase } from '../properties/arbitraries/break-case.ts';
import { scheduleCase } from '../properties/arbitraries/schedule-case.ts';
import { timesheetCase } from '../properties/arbitraries/timesheet-case.ts';
import { userCase } from '../properties/arbitraries/user-case.ts';
import type { GeneratorContext } from '../properties/family.ts';
import type { RecordId } from '../records/created-id.ts';
import { parseOffsetDateTime } from '../contract/formats/index.ts';
import { InternalError } from '../errors.ts';

/** A timesheet a flow created, with the interval its body gave (its breaks go inside it). */
export interface CreatedTimesheet {
  readonly id: RecordId;
  readonly start: string;
  readonly end: string;
}

/** What a body is made from besides the operation: the flow's values for its fields, and for a break its timesheet and slice. */
export interface BodyInput {
  /** Fields as the step's `with` resolved them: they replace what the generator made. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** POST /breaks: the timesheet and which of its slices. */
  readonly timesheet?: CreatedTimesheet;
  readonly slice?: { readonly index: number; readonly of: number };
}

/** The seed of the `n`th body of a run seeded `seed` (a 32-bit mix: neighbouring bodies draw unrelated cases). */
function bodySeed(seed: number, n: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ n, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

/** One case of `arbitrary`, drawn from `seed`. */
function draw<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  if (value === undefined) throw new InternalError('a generator gave no case');
  return value;
}

/** The slice `index` of `of` equal slices of the timesheet [start, end], as a closed timesheet of its own (whole seconds, at least 2 s). */
function sliceOf(timesheet: CreatedTimesheet, index: number, of: number): { start: string; end: string } | null {
  const start = parseOffsetDateTime(timesheet.start);
  const end = parseOffsetDateTime(timesheet.end);
  if (!start || !end) return null;
  const total = Math.floor((end.dateTime.toMillis() - start.dateTime.toMillis()) / 1000);
  const each = Math.floor(total / Math.max(1, of));
  if (each < 2) return null;
  const from = start.dateTime.plus({ seconds: each * index });
  const to = from.plus({ seconds: each });
  const format = (d: typeof from) => d.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
  return { start: format(from), end: format(to) };
}

/**
 * The bodies a workload sends, from the same generators as `run`'s property families (valid cases
 * only), seeded so a run's bodies can be made again. Unique where the spec needs it: each user gets
 * an e-mail no other body of any run has (the run's nonce and a counter), and a company employee ID
 * to match. A load run creates no admin: the token is an admin's, and every user it creates stays (no
 * delete on this API), so a generated role_id 1 becomes 3 unless the step's `with` says otherwise.
 * Every timesheet is closed (it has an end), so a break can go inside it.
 */
export class FlowBodies {
  readonly #ctx: GeneratorContext;
  readonly #seed: number;
  readonly #nonce: string;
  #count = 0;
  #users = 0;

  constructor(ctx: GeneratorContext, seed: number, nonce: string) {
    this.#ctx = ctx;
    this.#seed = seed;
    this.#nonce = nonce;
  }

  /** Bodies made so far. */
  get count(): number {
    return this.#count;
  }

  /** A body for `operation` (a create or an edit), with `input`'s fields over the generated ones; null for a break whose timesheet is too short to slice. */
  body(operation: 'POST /users' | 'PUT /users/{user_id}' | 'POST /timesheets' | 'POST /breaks' | 'POST /schedules' | 'PUT /schedules/{schedule_id}', input: BodyInput): Record<string, unknown> | null {
    const seed = bodySeed(this.#seed, this.#count++);
    const ctx = this.#ctx;
    let payload: Record<string, unknown>;
    switch (operation) {
      case 'POST /users':
      case 'PUT /users/{user_id}': {
        payload = { ...draw(userCase(ctx, operation === 'POST /users' ? 'create' : 'update'), seed).payload };
        this.#users++;
        payload.email = `clockcheck.${this.#nonce}.w${this.#users}@example.com`;
        if ('company_employee_id' in payload) payload.company_employee_id = `cc-${this.#nonce}-${this.#users}`;
        if (payload.role_id === 1) payload.role_id = 3;
        break;
      }
      case 'POST /timesheets': {
        const user = input.fields.user_id;
        const users = user === undefined ? ctx.activeUserIds : [user as RecordId];
        const closed = timesheetCase({ ...ctx, activeUserIds: users }, { nullEnd: false }).filter((c) => typeof c.payload.end === 'string');
        payload = { ...draw(closed, seed).payload };
        break;
      }
      case 'POST /breaks': {
        const sheet = input.timesheet;
        if (!sheet) throw new InternalError('a break body needs the timesheet the flow created');
        const slice = sliceOf(sheet, input.slice?.index ?? 0, input.slice?.of ?? 1);
        if (slice === null) return null;
        payload = { ...draw(breakCase({ ...ctx, timesheet: { id: sheet.id, ...slice } }), seed).payload };
        break;
      }
      case 'POST /schedules':
      case 'PUT /schedules/{schedule_id}':
        payload = { ...draw(scheduleCase(ctx, operation === 'POST /schedules' ? 'create' : 'update'), seed).payload };
        break;
    }
    return { ...payload, ...input.fields };
  }
}
