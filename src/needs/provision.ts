import { DateTime } from 'luxon';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { describeAnswer } from '../checks/context.ts';
import { formatOffsetDateTime } from '../contract/formats/offset-datetime.ts';
import type { Profile } from '../profile/profile.ts';
import { readCreatedId, unusableIdReason, type RecordId } from '../records/created-id.ts';
import type { CreatedResource } from '../report/model.ts';
import type { RunDates } from '../scenarios/template-context.ts';
import { ROLE_IDS } from './census.ts';
import type { Provisioning } from './fates.ts';
import type { Role } from './needs.ts';
import type { UniqueValues } from './unique-values.ts';

/** The check ID the ledger names for what the run created to meet its checks' needs. */
export const PROVISION_ID = 'run/provision';

/** What the run created before the checks: the users of each role, and why the rest could not be made (the first refusal). */
export interface Provisioned {
  readonly roleUsers: Readonly<Partial<Record<Role, RecordId>>>;
  readonly users: readonly RecordId[];
  /** The first create the target did not serve, e.g. "POST /users answered 422"; null when all were made. */
  readonly failure: string | null;
  readonly exchanges: readonly Exchange[];
}

export interface ProvisionContext {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly unique: UniqueValues;
  readonly dates: RunDates;
  readonly onCreated: (resource: CreatedResource) => void;
}

/** Breaks of 10 minutes every 20 from 09:30 fit a 09:00–17:00 timesheet 22 times. */
const BREAKS_PER_TIMESHEET = 22;

/**
 * Creates through the API what the checks need and the target does not hold: users (of a role, or
 * employees), timesheets for an active user, breaks in a timesheet of their own, in March of the
 * run's year (the scenarios use January and July). Each create is permanent (the spec has no
 * delete for users, timesheets or breaks) and goes to the ledger. Stops at the first refusal.
 */
export async function provision(plan: Provisioning, ctx: ProvisionContext): Promise<Provisioned> {
  const state: { roleUsers: Partial<Record<Role, RecordId>>; users: RecordId[]; failure: string | null; exchanges: Exchange[] } = { roleUsers: {}, users: [], failure: null, exchanges: [] };
  const create = async (request: TargetRequest, kind: 'user' | 'timesheet' | 'break'): Promise<RecordId | null> => {
    if (state.failure !== null) return null;
    const exchange = await ctx.send(request);
    state.exchanges.push(exchange);
    const status = exchange.response?.status ?? 0;
    const read = status >= 200 && status < 300 ? readCreatedId(exchange.response?.json, ctx.profile, kind) : null;
    if (read === null || read.kind !== 'id') {
      state.failure = `${request.method} ${request.path} ${describeAnswer(exchange)}${read === null ? '' : read.kind === 'absent' ? ' without an ID the profile locates' : `, but ${unusableIdReason(read)}`}`;
      if (read?.kind === 'not-integer') ctx.onCreated({ kind, id: read.shown, checkId: PROVISION_ID });
      return null;
    }
    ctx.onCreated({ kind, id: String(read.id), checkId: PROVISION_ID });
    return read.id;
  };
  for (const role of [...plan.users, ...Array<Role>(plan.moreUsers).fill('employee')]) {
    const id = await create({ method: 'POST', path: '/users', json: userBody(ctx, role) }, 'user');
    if (id === null) break;
    state.users.push(id);
    state.roleUsers[role] ??= id;
  }
  const owner = ctx.profile.fixtures.active_user_ids?.[0] ?? state.users[0];
  if (owner !== undefined) await provisionTimesheets(plan, ctx, owner, create);
  return state;
}

async function provisionTimesheets(plan: Provisioning, ctx: ProvisionContext, owner: RecordId, create: (request: TargetRequest, kind: 'user' | 'timesheet' | 'break') => Promise<RecordId | null>): Promise<void> {
  const sheetsForBreaks = Math.ceil(plan.breaks / BREAKS_PER_TIMESHEET);
  for (let day = 0; day < plan.timesheets + sheetsForBreaks; day++) {
    const start = DateTime.fromObject({ year: ctx.dates.year, month: 3, day: 1 + day, hour: 9 }, { zone: ctx.profile.company_timezone });
    const sheet = await create({ method: 'POST', path: '/timesheets', json: { user_id: owner, start: formatOffsetDateTime(start), end: formatOffsetDateTime(start.set({ hour: 17 })) } }, 'timesheet');
    if (sheet === null) return;
    if (day < plan.timesheets) continue;
    const breaks = Math.min(BREAKS_PER_TIMESHEET, plan.breaks - (day - plan.timesheets) * BREAKS_PER_TIMESHEET);
    for (let i = 0; i < breaks; i++) {
      const from = start.plus({ minutes: 30 + 20 * i });
      const body = { timesheet_id: sheet, break_rule_id: ctx.profile.fixtures.break_rule_id, start: formatOffsetDateTime(from), end: formatOffsetDateTime(from.plus({ minutes: 10 })) };
      if ((await create({ method: 'POST', path: '/breaks', json: body }, 'break')) === null) return;
    }
  }
}

/** A valid user of `role` (§2.2: the four required fields, a password of every class), unique to the run. */
function userBody(ctx: ProvisionContext, role: Role): Record<string, unknown> {
  const { email, name } = ctx.unique.next();
  return { first_name: name, last_name: 'Clockcheck', email, password: 'Clockcheck-1', role_id: ROLE_IDS[role] };
}
