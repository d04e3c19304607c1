import { DateTime } from 'luxon';
import { formatOffsetDateTime } from '../contract/formats/index.ts';
import { readCreatedId, unusableIdReason, type CreatedKind, type RecordId } from '../records/created-id.ts';
import type { RunDates } from '../scenarios/template-context.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { ClockcheckError } from '../errors.ts';
import type { PropertyFamily } from './family.ts';

/** What a family's setup produced: the resource's ID, and for breaks the timesheet interval. */
export interface SetupResource {
  readonly id: RecordId;
  readonly timesheet?: { readonly id: RecordId; readonly start: string; readonly end: string };
  readonly exchange: Exchange;
}

/**
 * Why a setup could not be made: the generated cases' precondition (the resource they need) was not
 * shown, so the family cannot judge and is errored with this reason.
 */
export class SetupFailed extends ClockcheckError {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super('CLOCKCHECK_PRECONDITION', message);
  }
}

/**
 * Creates the resource a family needs: a closed timesheet (08:00 to 18:00 company time, in March of
 * the run's base year, so it does not meet the suites' January and July days) for breaks, a schedule
 * to update, or a user to edit.
 */
export async function createSetupResource(
  needs: NonNullable<PropertyFamily['needs']>,
  send: (request: TargetRequest) => Promise<Exchange>,
  profile: Profile,
  dates: RunDates,
  uniqueEmail: string,
): Promise<SetupResource> {
  const userId = profile.fixtures.active_user_ids?.[0];
  const zone = profile.company_timezone;
  const day = DateTime.fromObject({ year: dates.year, month: 3, day: dates.day, hour: 8 }, { zone });
  let request: TargetRequest;
  let timesheet: { start: string; end: string } | undefined;
  switch (needs) {
    case 'timesheet':
      timesheet = { start: formatOffsetDateTime(day), end: formatOffsetDateTime(day.set({ hour: 18 })) };
      request = { method: 'POST', path: '/timesheets', json: { user_id: userId, ...timesheet } };
      break;
    case 'schedule':
      request = {
        method: 'POST',
        path: '/schedules',
        json: { assigned_by: userId, title: 'clockcheck property base', repeat: false, all_day: true, color: 'blue', user_ids: [userId], start_date: day.toFormat('MM/dd/yyyy'), end_date: day.toFormat('MM/dd/yyyy') },
      };
      break;
    case 'user':
      request = { method: 'POST', path: '/users', json: { first_name: 'Property', last_name: 'Base', email: uniqueEmail, password: 'Valid-pass1' } };
      break;
  }
  const exchange = await send(request);
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status >= 300) {
    throw new SetupFailed(`could not create the ${needs} the generated cases need: ${exchange.response ? `status ${status}` : exchange.error?.code}`, exchange);
  }
  const read = readCreatedId(exchange.response?.json, profile, needs satisfies CreatedKind);
  if (read.kind !== 'id') throw new SetupFailed(`could not create the ${needs} the generated cases need: ${unusableIdReason(read)}`, exchange);
  return { id: read.id, exchange, ...(timesheet ? { timesheet: { id: read.id, ...timesheet } } : {}) };
}
