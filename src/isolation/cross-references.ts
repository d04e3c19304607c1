import { isRefusal, statusText } from './probe-tally.ts';
import { namesNothingOwn, type Direction, type Known } from './cross-lists.ts';

const REFERENCES = 'isolation/references' as const;

/**
 * The caller's own creates (accepted when its records were written: the baselines) sent again with
 * one reference changed to the owner's record: a timesheet of the owner's user, a break in the
 * owner's timesheet (the same times, which lie in it), a schedule of the owner's user. Each must be
 * refused with a 4xx, as a reference to no record is; one accepted stored a record across companies.
 * A reference is probed only where a read showed its ID names nothing of the caller's own.
 */
export async function referenceOwnerRecords(d: Direction, known: Known, withBreak: boolean): Promise<void> {
  const { caller, owner } = d;
  const variants = [
    { what: 'a timesheet', path: '/timesheets', list: 'users' as const, id: owner.userId, body: { ...caller.bodies.timesheet, user_id: owner.userId }, field: 'user_id' },
    ...(withBreak && caller.bodies.break && owner.breakId !== undefined ? [{ what: 'a break', path: '/breaks', list: 'timesheets' as const, id: owner.timesheetId, body: { ...caller.bodies.break, timesheet_id: owner.timesheetId }, field: 'timesheet_id' }] : []),
    { what: 'a schedule', path: '/schedules', list: 'users' as const, id: owner.userId, body: { ...caller.bodies.schedule, user_ids: [owner.userId] }, field: 'user_ids' },
  ];
  if (withBreak && (caller.bodies.break === undefined || owner.breakId === undefined)) d.tally.skip(REFERENCES, `a break in ${owner.company.name}'s timesheet: ${caller.company.name} or ${owner.company.name} has no break (no break rule known)`);
  for (const v of variants) {
    if (!namesNothingOwn(known, v.list, v.id)) {
      d.tally.skip(REFERENCES, `${v.what} naming ${owner.company.name}'s ${v.list === 'users' ? 'user' : 'timesheet'} ${v.id}: no read showed that ID names nothing of ${caller.company.name}'s own`);
      continue;
    }
    const exchange = await caller.company.send({ method: 'POST', path: v.path, json: v.body });
    d.tally.judge(
      REFERENCES,
      'ISO-REFERENCE-SCOPED',
      isRefusal(exchange),
      `POST ${v.path} by ${caller.company.name} with ${v.field} naming ${owner.company.name}'s record refused with a 4xx (the same create naming its own was accepted)`,
      isRefusal(exchange) ? `status ${statusText(exchange)}` : `status ${statusText(exchange)}: ${v.what} of ${caller.company.name} referencing ${owner.company.name}'s record ${v.id} was stored`,
      [...caller.exchanges.filter((e) => e.request.url.endsWith(v.path)).slice(0, 1), exchange],
    );
  }
}
