import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import { FAULTS, faultByName, type FaultName } from '../../src/reference/faults.ts';
import { UsageError } from '../../src/errors.ts';
import type { RateLimitSetting } from '../../src/contract/rate-limit.ts';
import { RULES, ruleById } from '../../src/contract/rules.ts';
import { startSink } from '../../src/webhooks/sink.ts';
import type { Delivery } from '../../src/webhooks/delivery.ts';
import { baselines, startTestServer, type TestServer } from '../support/reference-client.ts';
import { FakeClock } from '../support/fake-clock.ts';

/**
 * One test per fault: the probe observes the behaviour the fault's rule governs. On the clean server
 * the observation is the spec-conforming one (`clean`); with the fault switched on it must differ.
 */
interface Probe {
  readonly probe: (t: TestServer, clock: FakeClock) => Promise<unknown>;
  readonly clean: unknown;
  /** The server's rate limit for this probe (default: off). */
  readonly rateLimit?: RateLimitSetting;
  /** The server's limiter counts by `clock`, which only the probe moves (exact windows, whatever the machine's load). */
  readonly controlledClock?: boolean;
  /** The server serves a second company, its token SECOND (the tenant-isolation faults). */
  readonly secondCompany?: boolean;
}

const SECOND = 'second-company-probe-token';
/** A call as the second company. */
const second = (t: TestServer, method: string, path: string, body?: unknown) => t.call(method, path, { body, authorization: SECOND });
/** The second company's seeded employee (Ada Ortiz) and timesheet. */
const secondSeed = (t: TestServer) => t.server.secondCompany!.seed;

const status = async (t: TestServer, method: string, path: string, body?: unknown) => (await t.call(method, path, { body })).status;
const base = (t: TestServer) => baselines(t.server);
const schedule = (t: TestServer, change: Record<string, unknown>, drop: string[] = []) => {
  const body: Record<string, unknown> = { ...base(t).schedule(), ...change };
  for (const name of drop) delete body[name];
  return status(t, 'POST', '/schedules', body);
};
const user = (t: TestServer, change: Record<string, unknown>, drop: string[] = []) => {
  const body: Record<string, unknown> = { ...base(t).user(), ...change };
  for (const name of drop) delete body[name];
  return t.call('POST', '/users', { body });
};
const timesheet = (t: TestServer, change: Record<string, unknown>) => status(t, 'POST', '/timesheets', { ...base(t).timesheet(), ...change });
const createBreak = (t: TestServer, change: Record<string, unknown> = {}) => t.call('POST', '/breaks', { body: { ...base(t).break(), ...change } });
const pagination = async (t: TestServer, path: string, body?: unknown) => (await t.call('GET', path, { body })).json.meta_data.pagination;
const firstNames = async (t: TestServer, query: string) =>
  ((await t.call('GET', `/users?${query}&page_size=100`)).json.items as { first_name: string }[]).map((u) => u.first_name);
/** A user created with `change`, as GET /users lists it afterwards (searched by its e-mail). */
const userReadBack = async (t: TestServer, change: Record<string, unknown>) => {
  const body = { ...base(t).user(), ...change };
  await t.call('POST', '/users', { body });
  return (await t.call('GET', `/users?search=${encodeURIComponent(body.email as string)}`)).json.items[0];
};
/** A timesheet created with `change`, as GET /timesheets lists it afterwards. */
const timesheetReadBack = async (t: TestServer, change: Record<string, unknown>) => {
  const created = await t.call('POST', '/timesheets', { body: { ...base(t).timesheet(), ...change } });
  const listed = (await t.call('GET', '/timesheets?page_size=100&sort=-id')).json.items as { id: number; [field: string]: any }[];
  return listed.find((s) => s.id === created.json.items.id) as { [field: string]: any };
};
/** A user edited with `change` after it was created, as GET /users lists it then (a new query, so no answer kept for it). */
const editedReadBack = async (t: TestServer, change: Record<string, unknown>) => {
  const body = base(t).user();
  const created = await t.call('POST', '/users', { body });
  await t.call('PUT', `/users/${created.json.items.id}`, { body: change });
  return (await t.call('GET', `/users?search=${encodeURIComponent(body.email)}`)).json.items[0];
};
const weekly = { repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks: 'monday,wednesday' };

/** A concurrent burst of `count` GET /users; the statuses, sorted. */
async function burst(t: TestServer, count: number): Promise<number[]> {
  const replies = await Promise.all(Array.from({ length: count }, () => t.call('GET', '/users?page_size=1')));
  return replies.map((r) => r.status).sort();
}
const accepted = (statuses: number[]) => statuses.filter((s) => s === 200).length;
const SMALL_LIMIT = { limit: 5, windowMs: 1000 };

/** Plain HTTP to the HTTPS port: did the answer carry API data? */
function plainHttpLeaks(t: TestServer): Promise<boolean> {
  return new Promise((resolve) => {
    let data = '';
    const socket = connect(t.server.port, '127.0.0.1', () =>
      socket.write(`GET /api/public/users HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${t.server.token}\r\n\r\n`),
    );
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('data', (chunk) => {
      data += chunk;
      if (data.includes('meta_data')) socket.destroy();
    });
    socket.on('close', () => resolve(data.includes('meta_data')));
    socket.on('error', () => resolve(data.includes('meta_data')));
  });
}

const SINK_SECRET = 'whsec-fault-probe';
/**
 * Subscribes a loopback sink (with a secret), unsubscribes when asked, creates a user: the first
 * notification the sink receives (signature and shape judged), or null when none comes in time.
 */
async function notification(t: TestServer, unsubscribeFirst = false): Promise<Delivery | null> {
  const sink = await startSink({ secret: SINK_SECRET });
  try {
    await t.call('POST', '/webhooks/subscription', { body: { url: sink.url, secret: SINK_SECRET } });
    if (unsubscribeFirst) await t.call('DELETE', '/webhooks/subscription/unsubscribe');
    await user(t, {});
    return await sink.waitFor(() => true, unsubscribeFirst ? 1000 : 5000);
  } finally {
    await sink.close();
  }
}

/**
 * Both companies subscribe a sink each; the first company creates a user (with `unsubscribeFirst`,
 * after the first unsubscribed and the second creates one instead): what the second company's sink
 * received within a second.
 */
async function secondCompanyHears(t: TestServer, unsubscribeFirst: boolean): Promise<number> {
  const [mine, theirs] = await Promise.all([startSink({ secret: SINK_SECRET }), startSink({ secret: SINK_SECRET })]);
  try {
    await t.call('POST', '/webhooks/subscription', { body: { url: mine.url, secret: SINK_SECRET } });
    await second(t, 'POST', '/webhooks/subscription', { url: theirs.url, secret: SINK_SECRET });
    if (unsubscribeFirst) {
      await t.call('DELETE', '/webhooks/subscription/unsubscribe');
      await second(t, 'POST', '/users', { first_name: 'Second', last_name: 'Hears', email: `hears-${Date.now()}@example.com`, password: 'Valid-pass1' });
    } else {
      await user(t, {});
    }
    await theirs.waitFor(() => true, 1000);
    return theirs.deliveries.length;
  } finally {
    await Promise.all([mine.close(), theirs.close()]);
  }
}

const PROBES: Record<FaultName, Probe> = {
  // rate limiting: 5 calls per second so the probes stay quick
  'rate-limit-off': { rateLimit: SMALL_LIMIT, clean: 5, probe: async (t) => accepted(await burst(t, 8)) },
  'rate-limit-one-extra': { rateLimit: SMALL_LIMIT, clean: 5, probe: async (t) => accepted(await burst(t, 8)) },
  'rate-limit-race': { rateLimit: SMALL_LIMIT, clean: 5, probe: async (t) => accepted(await burst(t, 8)) },
  'rate-limit-too-strict': { rateLimit: SMALL_LIMIT, clean: 5, probe: async (t) => accepted(await burst(t, 8)) },
  'rate-limit-wrong-status': { rateLimit: SMALL_LIMIT, clean: [200, 200, 200, 200, 200, 429, 429, 429], probe: (t) => burst(t, 8) },
  'rate-limit-silent-body': {
    rateLimit: SMALL_LIMIT,
    clean: true,
    probe: async (t) => {
      const replies = await Promise.all(Array.from({ length: 7 }, () => t.call('GET', '/users?page_size=1')));
      return replies.filter((r) => r.status === 429).every((r) => r.text.includes('Too Many Attempts'));
    },
  },
  'rate-limit-never-resets': {
    rateLimit: { limit: 5, windowMs: 300 },
    controlledClock: true,
    clean: 200,
    probe: async (t, clock) => {
      await burst(t, 6);
      await clock.advanceTo(clock.now() + 400);
      return status(t, 'GET', '/users');
    },
  },
  'rate-limit-clock-window': {
    rateLimit: SMALL_LIMIT,
    controlledClock: true,
    // 5 calls 150 ms before the clock's window boundary, 5 calls 20 ms after it: the sliding window still holds the first 5.
    clean: 0,
    probe: async (t, clock) => {
      // The next window boundary of the clock but one, so there is room before it.
      const boundary = (Math.floor(clock.now() / SMALL_LIMIT.windowMs) + 2) * SMALL_LIMIT.windowMs;
      await clock.advanceTo(boundary - 150);
      await burst(t, 5);
      await clock.advanceTo(boundary + 20);
      return accepted(await burst(t, 5));
    },
  },
  'rate-limit-fixed-window': {
    rateLimit: SMALL_LIMIT,
    controlledClock: true,
    // t=0: 1 call; t=600: 4 calls; t=1150: the first call has left the sliding window, the other 4 have not.
    clean: 1,
    probe: async (t, clock) => {
      const start = clock.now();
      await burst(t, 1);
      await clock.advanceTo(start + 600);
      await burst(t, 4);
      await clock.advanceTo(start + 1150);
      return accepted(await burst(t, 5));
    },
  },
  'rate-limit-skips-refused': {
    rateLimit: SMALL_LIMIT,
    controlledClock: true,
    // limit + 1 calls without a token, then limit + 1 with one wrong token, within one window: the last of each 429 on the clean server.
    clean: [429, 429],
    probe: async (t) => {
      const refused = async (authorization: string | null) => {
        const statuses: number[] = [];
        for (let i = 0; i <= SMALL_LIMIT.limit; i++) statuses.push((await t.call('GET', '/users?page_size=1', { authorization })).status);
        return statuses.at(-1);
      };
      return [await refused(null), await refused('not-the-token')];
    },
  },

  // authentication
  'auth-missing-accepted': { clean: 401, probe: async (t) => (await t.call('GET', '/users', { authorization: null })).status },
  'auth-any-token': { clean: 401, probe: async (t) => (await t.call('GET', '/users', { authorization: 'not-the-token' })).status },
  'auth-bearer-only': { clean: 200, probe: (t) => status(t, 'GET', '/users') },

  // one company's token on another company's records (the first company's token on the second's seed)
  'search-index-unscoped': { secondCompany: true, clean: [], probe: async (t) => ((await t.call('GET', '/users?search=Ortiz')).json.items as { last_name: string }[]).map((u) => u.last_name) },
  'search-total-unscoped': { secondCompany: true, clean: 0, probe: async (t) => (await t.call('GET', '/users?search=Ortiz')).json.meta_data.pagination.total },
  'user-edit-by-id-alone': { secondCompany: true, clean: 404, probe: (t) => status(t, 'PUT', `/users/${secondSeed(t).activeUserIds.employee}`, { first_name: 'Crossed' }) },
  'schedule-update-by-id-alone': { secondCompany: true, clean: 404, probe: (t) => status(t, 'PUT', `/schedules/${secondSeed(t).scheduleIds[0]}`, { ...base(t).schedule(), event_pid: 'x' }) },
  'timesheet-user-unscoped': { secondCompany: true, clean: 422, probe: (t) => timesheet(t, { user_id: secondSeed(t).activeUserIds.employee }) },
  'break-timesheet-unscoped': { secondCompany: true, clean: 422, probe: async (t) => (await createBreak(t, { timesheet_id: secondSeed(t).timesheetIds[0] })).status },
  'schedule-users-unscoped': { secondCompany: true, clean: 422, probe: (t) => schedule(t, { user_ids: [secondSeed(t).activeUserIds.employee] }) },
  'break-ids-unscoped': { secondCompany: true, clean: 0, probe: async (t) => (await second(t, 'GET', '/breaks', { ids: [1] })).json.items.length },
  'foreign-id-forbidden': { secondCompany: true, clean: 404, probe: (t) => status(t, 'PUT', `/users/${secondSeed(t).activeUserIds.employee}`, { first_name: 'Crossed' }) },
  'webhook-notifies-every-company': { secondCompany: true, clean: 0, probe: (t) => secondCompanyHears(t, false) },
  'webhook-unsubscribe-every-company': { secondCompany: true, clean: 1, probe: (t) => secondCompanyHears(t, true) },

  // edges a full run always sends (issue 50)
  'employee-code-leading-zero-refused': { clean: 201, probe: async (t) => (await user(t, { employee_code: '0123' })).status },
  // 2019-11-03 01:30 is in New York's repeated hour: -04:00 (EDT, before the change) and -05:00 (EST, after) both name it.
  'offset-wall-time-standard': { clean: 201, probe: (t) => timesheet(t, { clock_in_timezone: 'America/New_York', start: '2019-11-03T01:30:00-04:00', end: null }) },
  'offset-wall-time-first': { clean: 201, probe: (t) => timesheet(t, { clock_in_timezone: 'America/New_York', start: '2019-11-03T01:30:00-05:00', end: null }) },

  // secrets an answer never carries
  'debug-error-echoes-headers': { clean: false, probe: async (t) => JSON.stringify((await user(t, { employee_code: '12' })).json).includes(t.server.token) },
  'user-password-echoed': { clean: false, probe: async (t) => JSON.stringify((await user(t, { password: 'Echo-Me-9' })).json).includes('Echo-Me-9') },
  'user-password-hash-shown': { clean: undefined, probe: async (t) => (await t.call('GET', `/users?search=employee@seed`)).json.items[0]?.password?.slice(0, 7) },

  // transport
  'plain-http-served': { clean: false, probe: plainHttpLeaks },
  'malformed-json-500': { clean: 400, probe: async (t) => (await t.call('POST', '/users', { rawBody: '{"first_name": ' })).status },
  'errors-not-json': { clean: 'application/json', probe: async (t) => (await t.call('GET', '/nope')).headers['content-type'] },
  'head-unsupported': { clean: 200, probe: (t) => status(t, 'HEAD', '/users') },
  'head-status-mismatch': { clean: 422, probe: (t) => status(t, 'HEAD', '/users?page_size=abc') },
  'versioned-path-missing': { clean: 200, probe: async (t) => (await t.call('GET', '/users', { prefix: '/api/v2' })).status },

  // schedules
  'date-format-lenient': { clean: [422, 422], probe: async (t) => [await schedule(t, { start_date: '2026-12-01' }), await schedule(t, { end_date: '12/1/2026' })] },
  'date-calendar-unchecked': { clean: 422, probe: (t) => schedule(t, { end_date: '02/30/2026' }) },
  'time-24-00-accepted': { clean: 422, probe: (t) => schedule(t, { end_time: '24:00' }) },
  'time-12h-accepted': { clean: 422, probe: (t) => schedule(t, { start_time: '07:30 PM' }) },
  'weeks-format-unchecked': { clean: 422, probe: (t) => schedule(t, { ...weekly, weeks: 'Monday,Funday' }) },
  'time-2359-refused': { clean: 201, probe: (t) => schedule(t, { all_day: false, start_time: '09:00', end_time: '23:59' }) },
  'weeks-single-refused': { clean: 201, probe: (t) => schedule(t, { ...weekly, weeks: 'monday' }) },
  'leap-day-refused': { clean: 201, probe: (t) => schedule(t, { start_date: '02/29/2028', end_date: '02/29/2028' }) },
  'timezone-name-unchecked': { clean: 422, probe: (t) => schedule(t, { timezone: 'Mars/Olympus' }) },
  'timezone-default-utc': {
    clean: 'America/Chicago',
    probe: async (t) => (await t.call('POST', '/schedules', { body: base(t).schedule() })).json.items.timezone,
  },
  'all-day-times-not-required': { clean: 422, probe: (t) => schedule(t, { all_day: false }, ['start_time', 'end_time']) },
  'all-day-times-required-anyway': { clean: 201, probe: (t) => schedule(t, { all_day: true }, ['start_time', 'end_time']) },
  'repeat-end-date-not-required': { clean: 422, probe: (t) => schedule(t, { repeat: true, repeat_type: 'daily' }) },
  'weekly-weeks-not-required': { clean: 422, probe: (t) => schedule(t, { ...weekly }, ['weeks']) },
  'update-event-pid-not-required': {
    clean: 422,
    probe: async (t) => {
      const id = (await t.call('POST', '/schedules', { body: base(t).schedule() })).json.items.id;
      return status(t, 'PUT', `/schedules/${id}`, { title: 'Renamed' });
    },
  },
  'update-conditionals-skipped': {
    clean: 422,
    probe: async (t) => {
      const body: Record<string, unknown> = { ...base(t).schedule(), all_day: true };
      delete body.start_time;
      delete body.end_time;
      const id = (await t.call('POST', '/schedules', { body })).json.items.id;
      return status(t, 'PUT', `/schedules/${id}`, { event_pid: 'evt-1', all_day: false });
    },
  },
  'inactive-user-assignable': { clean: 422, probe: (t) => schedule(t, { user_ids: [t.server.seed.inactiveUserId] }) },
  'color-not-required': { clean: 422, probe: (t) => schedule(t, {}, ['color']) },

  // users
  'password-special-not-required': { clean: 422, probe: async (t) => (await user(t, { password: 'Abcdef12' })).status },
  'password-min-5': { clean: 422, probe: async (t) => (await user(t, { password: 'Ab1!x' })).status },
  'password-six-refused': { clean: 201, probe: async (t) => (await user(t, { password: 'Ab1!xy' })).status },
  'password-unchecked-on-edit': { clean: 422, probe: (t) => status(t, 'PUT', `/users/${t.server.seed.activeUserIds.employee}`, { password: 'abc' }) },
  'employee-code-length-unchecked': { clean: 422, probe: async (t) => (await user(t, { employee_code: '12345' })).status },
  'employee-code-non-digits': { clean: 422, probe: async (t) => (await user(t, { employee_code: '12a4' })).status },
  'role-id-default-admin': { clean: 3, probe: async (t) => (await user(t, {})).json.items.role_id },
  'role-id-unchecked': { clean: 422, probe: async (t) => (await user(t, { role_id: 4 })).status },
  'track-location-default-true': { clean: false, probe: async (t) => (await user(t, {})).json.items.track_location },
  'pay-rate-default-null': { clean: 0, probe: async (t) => (await user(t, {})).json.items.pay_rate },
  'billing-rate-type-unchecked': { clean: 422, probe: async (t) => (await user(t, { billing_rate_type: 2 })).status },
  'email-not-required': { clean: 422, probe: async (t) => (await user(t, {}, ['email'])).status },
  'user-put-replaces': {
    clean: 'Emma',
    probe: async (t) => {
      await t.call('PUT', `/users/${t.server.seed.activeUserIds.employee}`, { body: { phone: '555-0100' } });
      const listed = await t.call('GET', '/users?search=employee@seed');
      return listed.json.items[0]?.first_name;
    },
  },
  'email-format-unchecked': {
    clean: [422, 422],
    probe: async (t) => [
      (await user(t, { email: 'clockcheck.at.example.com' })).status,
      await status(t, 'PUT', `/users/${t.server.seed.activeUserIds.employee}`, { email: 'emma@localhost' }),
    ],
  },
  'edit-requires-all-four': { clean: 200, probe: (t) => status(t, 'PUT', `/users/${t.server.seed.activeUserIds.employee}`, { phone: '555-0100' }) },

  // timesheets and offsets
  'timesheet-naive-datetime': { clean: 422, probe: (t) => timesheet(t, { start: '2026-12-01T09:00:00' }) },
  'timesheet-end-null-rejected': { clean: 201, probe: (t) => timesheet(t, { end: null }) },
  'timesheet-unknown-user': { clean: 422, probe: (t) => timesheet(t, { user_id: 9999 }) },
  'offset-unchecked': {
    clean: 422,
    probe: (t) => timesheet(t, { clock_in_timezone: 'Europe/London', start: '2026-07-01T09:00:00+00:00', end: null }),
  },
  'offset-dst-blind': {
    clean: 201,
    probe: (t) => timesheet(t, { clock_in_timezone: 'Europe/London', start: '2026-07-01T09:00:00+01:00', end: null }),
  },
  'offset-day-granular': {
    // 2026-03-08 is Chicago's spring-forward day: at 10:00 the offset is already -05:00.
    clean: 201,
    probe: (t) => timesheet(t, { clock_in_timezone: 'America/Chicago', start: '2026-03-08T10:00:00-05:00', end: null }),
  },
  'end-offset-uses-clock-in': {
    clean: 201,
    probe: (t) =>
      timesheet(t, {
        clock_in_timezone: 'America/Chicago',
        clock_out_timezone: 'Europe/London',
        start: '2026-12-01T09:00:00-06:00',
        end: '2026-12-01T23:00:00+00:00',
      }),
  },
  'offset-default-utc': { clean: 201, probe: (t) => timesheet(t, {}) },

  // breaks
  'break-list-duration-name': {
    clean: true,
    probe: async (t) => 'duration_in_seconds' in (await t.call('GET', '/breaks?page_size=1')).json.items[0],
  },
  'break-create-no-timesheet-id': { clean: 1, probe: async (t) => (await createBreak(t)).json.items.timesheet_id },
  'break-duration-minutes': { clean: 1200, probe: async (t) => (await createBreak(t)).json.items.duration },
  'break-duration-whole-minutes': { clean: 90, probe: async (t) => (await createBreak(t, { end: '2026-10-01T13:01:30-05:00' })).json.items.duration },
  'break-timestamps-with-offset': {
    clean: true,
    probe: async (t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test((await createBreak(t)).json.items.created_at),
  },
  'break-outside-timesheet': {
    clean: 422,
    probe: async (t) => (await createBreak(t, { start: '2026-10-01T08:00:00-05:00', end: '2026-10-01T08:10:00-05:00' })).status,
  },
  'break-naive-datetime': { clean: 422, probe: async (t) => (await createBreak(t, { start: '2026-10-01T13:00:00' })).status },
  'break-unknown-rule': { clean: 422, probe: async (t) => (await createBreak(t, { break_rule_id: 999 })).status },
  'break-ids-ignored': { clean: 2, probe: async (t) => (await pagination(t, '/breaks', { ids: [1, 2] })).total },
  'break-ids-empty-none': { clean: 36, probe: async (t) => (await pagination(t, '/breaks', { ids: [] })).total },
  'break-create-no-message': { clean: 'string', probe: async (t) => typeof (await createBreak(t)).json.message },

  // pagination
  'page-size-uncapped': { clean: 100, probe: async (t) => (await pagination(t, '/breaks?page_size=101')).per_page },
  'page-size-100-refused': { clean: 200, probe: async (t) => (await t.call('GET', '/breaks?page_size=100')).status },
  'page-size-default-15': { clean: 10, probe: async (t) => (await t.call('GET', '/breaks')).json.items.length },
  'last-page-extra-when-exact': { clean: 3, probe: async (t) => (await pagination(t, '/breaks?page_size=12')).last_page },
  'pages-overlap': { clean: 11, probe: async (t) => (await t.call('GET', '/breaks?page=2')).json.items[0].id },
  'pagination-total-of-page': { clean: 36, probe: async (t) => (await pagination(t, '/breaks')).total },
  'pagination-field-missing': { clean: true, probe: async (t) => 'last_page_url' in (await pagination(t, '/breaks')) },
  'page-zero-based': { clean: 1, probe: async (t) => (await t.call('GET', '/breaks?page=1')).json.items[0].id },
  'next-page-url-stuck': { clean: 'page=3', probe: async (t) => /page=\d+/.exec((await pagination(t, '/breaks?page=2')).next_page_url)?.[0] },

  // sorting, searching, filtering
  'sort-ignored': {
    clean: ['Ada', 'Ada', 'Bruno', 'Carla', 'Dmitri', 'Emma', 'Farah', 'Gus', 'Hana', 'Ivan', 'Max', 'Zoe'],
    probe: (t) => firstNames(t, 'sort=firstName'),
  },
  'sort-descending-ignored': { clean: 'Zoe', probe: async (t) => (await firstNames(t, 'sort=-firstName'))[0] },
  'sort-multi-ignored': {
    clean: 'Byron',
    probe: async (t) => (await t.call('GET', '/users?sort=firstName,-roleId')).json.items[0].last_name,
  },
  'search-ignored': { clean: 1, probe: async (t) => (await pagination(t, '/users?search=zimmer')).total },
  'filter-active-ignored': { clean: 2, probe: async (t) => (await pagination(t, '/users?active=0')).total },
  'filter-role-ignored': { clean: 3, probe: async (t) => (await pagination(t, '/users?role=2')).total },
  'filter-active-false-ignored': { clean: 2, probe: async (t) => (await pagination(t, '/users?active=0')).total },
  'filter-role-manager-ignored': { clean: 3, probe: async (t) => (await pagination(t, '/users?role=2')).total },
  'sort-id-as-text': { clean: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], probe: async (t) => ((await t.call('GET', '/users?sort=id&page_size=10')).json.items as { id: number }[]).map((u) => u.id) },
  'page-not-number-500': { clean: 422, probe: (t) => status(t, 'GET', '/users?page=abc') },
  'sort-unknown-500': { clean: 422, probe: (t) => status(t, 'GET', '/users?sort=no_such_field') },
  'date-range-end-exclusive': { clean: 3, probe: async (t) => (await pagination(t, '/timesheets?date_range=2026-10-01,2026-10-03')).total },
  'date-range-ignored': { clean: 3, probe: async (t) => (await pagination(t, '/timesheets?date_range=2026-10-01,2026-10-03')).total },

  // webhook
  'unsubscribe-keeps-subscription': {
    clean: 404,
    probe: async (t) => {
      await t.call('DELETE', '/webhooks/subscription/unsubscribe');
      return status(t, 'GET', '/webhooks/subscription');
    },
  },
  'notifications-after-unsubscribe': { clean: false, probe: async (t) => (await notification(t, true)) !== null },
  'webhook-wrong-signature': { clean: 'verified', probe: async (t) => (await notification(t))?.signature },
  'webhook-unsigned': { clean: 'verified', probe: async (t) => (await notification(t))?.signature },
  'webhook-payload-no-id': { clean: true, probe: async (t) => (await notification(t))?.payload.ok },

  // what is written reads back: each shows only when the record is read again
  'user-edit-fillable': { clean: 2, probe: async (t) => (await editedReadBack(t, { role_id: 2 })).role_id },
  'text-outside-bmp-lost': { clean: 'Zoë 🕒', probe: async (t) => (await userReadBack(t, { first_name: 'Zoë 🕒' })).first_name },
  'text-nfc-normalized': { clean: 'Rene\u0301e', probe: async (t) => (await userReadBack(t, { first_name: 'Rene\u0301e' })).first_name },
  'text-html-escaped': { clean: "O'Brien & <Co>", probe: async (t) => (await userReadBack(t, { last_name: "O'Brien & <Co>" })).last_name },
  'phone-digits-only': { clean: '555-0100', probe: async (t) => (await userReadBack(t, { phone: '555-0100' })).phone },
  'track-mileage-not-stored': { clean: true, probe: async (t) => (await userReadBack(t, { track_mileage: true })).track_mileage },
  'mileage-rounded': { clean: 12.75, probe: async (t) => (await timesheetReadBack(t, { mileage: 12.75 })).mileage },
  'notes-cut-255': { clean: 300, probe: async (t) => (await timesheetReadBack(t, { notes: 'x'.repeat(300) })).notes.length },
  'clock-out-timezone-from-clock-in': {
    clean: 'Europe/London',
    probe: async (t) =>
      (await timesheetReadBack(t, { clock_in_timezone: 'America/Chicago', clock_out_timezone: 'Europe/London', start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T23:00:00+00:00' })).clock_out_timezone,
  },
  'break-times-company-offset': {
    clean: '2026-10-01T18:00:00+00:00',
    probe: async (t) => {
      const created = await createBreak(t, { start: '2026-10-01T18:00:00+00:00', end: '2026-10-01T18:20:00+00:00' });
      return (await t.call('GET', '/breaks', { body: { ids: [created.json.items.id] } })).json.items[0].start;
    },
  },
  'break-ids-first-ten': { clean: 12, probe: async (t) => (await pagination(t, '/breaks', { ids: Array.from({ length: 12 }, (_, i) => i + 1) })).total },
  'user-list-stale-after-edit': {
    clean: 'Renamed',
    probe: async (t) => {
      const body = base(t).user();
      const created = await t.call('POST', '/users', { body });
      const search = `/users?search=${encodeURIComponent(body.email)}`;
      await t.call('GET', search);
      await t.call('PUT', `/users/${created.json.items.id}`, { body: { first_name: 'Renamed' } });
      return (await t.call('GET', search)).json.items[0].first_name;
    },
  },

  // edges of a domain
  'password-length-utf16': { clean: 422, probe: async (t) => (await user(t, { password: 'Aa1!🕒' })).status },
  'password-length-bytes': { clean: 422, probe: async (t) => (await user(t, { password: 'Aa1!é' })).status },
  'password-special-subset': { clean: 201, probe: async (t) => (await user(t, { password: 'Valid~pass1' })).status },
  'leap-century-accepted': { clean: 422, probe: (t) => schedule(t, { end_date: '02/29/2100' }) },
  'leap-2000-refused': { clean: 201, probe: (t) => schedule(t, { start_date: '02/29/2000', end_date: '02/29/2000' }) },

  // protocol details
  'head-content-length-zero': {
    clean: true,
    probe: async (t) => (await t.call('HEAD', '/users')).headers['content-length'] === String(Buffer.byteLength((await t.call('GET', '/users')).text)),
  },
  'json-charset-refused': { clean: 201, probe: async (t) => (await t.call('POST', '/users', { body: base(t).user(), contentType: 'application/json; charset=utf-8' })).status },
  'json-media-type-case-sensitive': { clean: 201, probe: async (t) => (await t.call('POST', '/users', { body: base(t).user(), contentType: 'Application/JSON' })).status },
};

describe('the fault catalog', () => {
  it('has at least 30 faults, each naming a rule of the catalog', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(30);
    for (const fault of FAULTS) expect(() => ruleById(fault.rule)).not.toThrow();
  });

  it('has unique fault names', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
  });

  it('spreads over every rule family that a server can break', () => {
    const families = new Set(FAULTS.map((f) => ruleById(f.rule).family));
    for (const family of ['transport', 'auth', 'versioning', 'schedule', 'user', 'password', 'timesheet', 'offset-timezone', 'break', 'pagination', 'query', 'webhook', 'rate-limit']) {
      expect(families, family).toContain(family);
    }
  });

  it('has a rule catalog of at least 60 rules', () => {
    expect(RULES.length).toBeGreaterThanOrEqual(60);
  });

  it('refuses a name no fault has with a UsageError that says where the names are listed', () => {
    expect(() => faultByName('no-such-fault')).toThrow(UsageError);
    expect(() => faultByName('no-such-fault')).toThrow('unknown fault "no-such-fault"; `clockcheck serve --list-faults` lists them');
    expect(() => faultByName('rate-limit-one-xtra')).toThrow('unknown fault "rate-limit-one-xtra" (did you mean "rate-limit-one-extra"?); `clockcheck serve --list-faults` lists them');
  });
});

describe('each fault changes the behaviour its rule governs', () => {
  let tls: TlsIdentity;
  beforeAll(async () => {
    tls = await generateTlsIdentity();
  });

  const running: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((t) => t.close()));
  });

  async function observe(fault: FaultName | null, probe: Probe): Promise<unknown> {
    const clock = new FakeClock(1_000_000);
    const t = await startTestServer({ tls, faults: fault ? [fault] : [], rateLimit: probe.rateLimit ?? null, ...(probe.controlledClock ? { clock } : {}), ...(probe.secondCompany ? { secondCompanyToken: SECOND } : {}) });
    running.push(t);
    try {
      return await probe.probe(t, clock);
    } finally {
      await t.close();
      running.splice(running.indexOf(t), 1);
    }
  }

  it.each(FAULTS.map((f) => [f.name, f.rule, PROBES[f.name]] as const))('%s breaks %s observably', async (name, _rule, probe) => {
    expect(await observe(null, probe), 'clean server').toEqual(probe.clean);
    expect(await observe(name, probe), 'faulty server').not.toEqual(probe.clean);
  });
});
