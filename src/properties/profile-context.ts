import { ClockcheckError, InternalError, UsageError } from '../errors.ts';
import { parseOffsetDateTime } from '../contract/formats/index.ts';
import type { Profile } from '../profile/profile.ts';
import type { FamilyRequest, GeneratorContext } from './family.ts';

/** The profile fixtures a generator cannot do without, as the profile spells them. */
export type ContextFixture = 'active_user_ids' | 'break_rule_id' | 'timesheet';

/** What each fixture is, for the person who has to find it on their server. */
const FIXTURE_MEANINGS: Readonly<Record<ContextFixture, string>> = {
  active_user_ids: 'IDs of active users on your server, for assigned_by, user_ids and user_id',
  break_rule_id: 'a break rule on your server',
  timesheet: 'a closed timesheet on your server: id, start, end',
};

type Resource = 'schedules' | 'users' | 'timesheets' | 'breaks';

/**
 * The fixtures each resource's generators read without a fallback (checked against
 * src/properties/arbitraries/: scheduleCase and the timesheet cases draw from activeUserIds, the
 * break cases from breakFrame). job_id and task_id are absent here on purpose: the generators send
 * them only when the context has them. User payloads read only the unique tag.
 */
const FIXTURES_READ: Readonly<Record<Resource, readonly ContextFixture[]>> = {
  schedules: ['active_user_ids'],
  users: [],
  timesheets: ['active_user_ids'],
  breaks: ['timesheet', 'break_rule_id'],
};

/** What the payloads of a request need to build a context: the profile gives them, or it is an error. */
export interface ContextUse {
  /** The request the payloads are generated for (a fuzz operation's or a property family's). */
  readonly request: FamilyRequest;
  /** Who needs the fixtures, as the error should start: `fuzz: break payloads`. */
  readonly neededBy: string;
}

/**
 * The generator context for the server a profile describes: company_timezone, and from `fixtures`
 * active_user_ids, job_id, task_id, break_rule_id and timesheet. Nothing is made up: a fixture the
 * request's generators read and the profile lacks is a UsageError naming the key (a guessed ID
 * would make "valid" payloads that name resources the server does not have). Fixtures the request
 * does not read may be absent; `activeUserIds` is then empty.
 * @param uniqueTag folded into unique values (e-mails); fixed for output that is the same for a seed.
 * @throws UsageError with one line: the missing key, what needs it, and where to get it;
 *   ClockcheckError `CLOCKCHECK_PROFILE` for a fixtures.timesheet breaks cannot lie inside.
 */
export function profileContext(profile: Profile, uniqueTag: string, use: ContextUse): GeneratorContext {
  const fixtures = profile.fixtures;
  for (const key of FIXTURES_READ[resourceOf(use.request)]) {
    if (fixtures[key] === undefined) {
      throw new UsageError(
        `${use.neededBy} need fixtures.${key} (${FIXTURE_MEANINGS[key]}); the profile has none; \`clockcheck init\` discovers it, or add it by hand`,
      );
    }
  }
  if (fixtures.timesheet && resourceOf(use.request) === 'breaks') requireClosedInterval(fixtures.timesheet, use.neededBy);
  return fixturesContext(profile, uniqueTag);
}

/**
 * The generator context the profile's fixtures and company timezone make, as they are, with no
 * check of what a generator needs (profileContext checks; the run's property phase checks its own
 * and creates the timesheet breaks go in).
 */
export function fixturesContext(profile: Profile, uniqueTag: string): GeneratorContext {
  const fixtures = profile.fixtures;
  return {
    companyTimezone: profile.company_timezone,
    activeUserIds: fixtures.active_user_ids ?? [],
    ...(fixtures.job_id !== undefined ? { jobId: fixtures.job_id } : {}),
    ...(fixtures.task_id !== undefined ? { taskId: fixtures.task_id } : {}),
    ...(fixtures.break_rule_id !== undefined ? { breakRuleId: fixtures.break_rule_id } : {}),
    ...(fixtures.timesheet ? { timesheet: { ...fixtures.timesheet } } : {}),
    uniqueTag,
  };
}

/** `/schedules/{id}` → schedules; a request of no known resource is a programming error. */
function resourceOf(request: FamilyRequest): Resource {
  const resource = request.path.split('/')[1] ?? '';
  if (resource in FIXTURES_READ) return resource as Resource;
  throw new InternalError(`profileContext: no fixtures known for ${request.method} ${request.path}; add its resource to FIXTURES_READ`);
}

/**
 * Breaks are drawn as whole seconds inside the timesheet, so it must end at least 2 s after it
 * starts (what breakFrame assumes); the profile schema checks only each value's format.
 */
function requireClosedInterval(sheet: { readonly start: string; readonly end: string }, neededBy: string): void {
  const start = parseOffsetDateTime(sheet.start)?.dateTime.toMillis();
  const end = parseOffsetDateTime(sheet.end)?.dateTime.toMillis();
  if (start === undefined || end === undefined || end - start < 2000) {
    throw new ClockcheckError('CLOCKCHECK_PROFILE', `${neededBy} need fixtures.timesheet to end at least 2 s after it starts; it runs ${sheet.start} to ${sheet.end}: name a closed timesheet on your server, e.g. 08:00 to 18:00`);
  }
}
