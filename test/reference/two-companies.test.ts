import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.ts';
import { UsageError } from '../../src/errors.ts';
import { startSink, type Sink } from '../../src/webhooks/sink.ts';
import type { Delivery } from '../../src/webhooks/delivery.ts';
import { startTestServer, violationPairs, type Reply, type TestServer } from '../support/reference-client.ts';

/**
 * The reference server serving two companies in one shared database (issue 49's foundation): each
 * company's token reaches its own company's records only, another company's record answered as an
 * ID that never existed; their IDs come from one sequence, so they interleave.
 */

const SECOND_TOKEN = 'second-company-token-49';
const first = { authorization: undefined };
const second = { authorization: SECOND_TOKEN };
type Who = typeof first | typeof second;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ secondCompanyToken: SECOND_TOKEN });
});
afterAll(async () => {
  await t?.close();
});

const as = (who: Who) => (who.authorization === undefined ? {} : { authorization: who.authorization });
const get = (who: Who, path: string, body?: unknown) => t.call('GET', path, { ...as(who), ...(body === undefined ? {} : { body }) });
const ids = (reply: Reply) => (reply.json.items as Array<{ id: number }>).map((item) => item.id);
const total = (reply: Reply) => reply.json.meta_data.pagination.total as number;
const secondSeed = () => t.server.secondCompany!.seed;

/** The answer to an ID that never existed, with that ID written as `{id}` so another ID's answer compares. */
const shape = (reply: Reply, id: number) => ({ status: reply.status, body: JSON.parse(reply.text.replaceAll(String(id), '{id}')) });
const NEVER = 987_654;

describe('two companies, one sequence of IDs', () => {
  it('interleaves the two seeds: each company has gaps, together they count from 1 without one', () => {
    const a = t.server.seed;
    const b = secondSeed();
    // Users in turn: the first company's 1, the second's 2, ..., until the second's four are seeded.
    expect(a.allActiveUserIds).toEqual([1, 3, 5, 9, 10, 11, 12, 13, 14, 16]);
    expect(a.inactiveUserId).toBe(7); // and 15, Gus Garcia
    expect([...b.allActiveUserIds, b.inactiveUserId]).toEqual([2, 4, 6, 8]);
    expect(a.activeUserIds).toEqual({ admin: 1, manager: 3, employee: 5 });
    expect(b.activeUserIds).toEqual({ admin: 2, manager: 4, employee: 6 });
    expect([a.jobIds, b.jobIds, a.breakRuleIds, b.breakRuleIds]).toEqual([[1, 3], [2], [1, 3], [2, 4]]);
    expect(a.timesheetIds).toEqual([1, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(a.openTimesheetId).toBe(15);
    expect([b.timesheetIds, b.breakCount, b.scheduleIds]).toEqual([[2, 4], 6, [1]]);
  });

  it('continues the one sequence for records either company creates', async () => {
    const body = (who: string) => ({ first_name: 'Seq', last_name: who, email: `seq.${who}@example.test`, password: 'Valid-pass1' });
    const madeByFirst = await t.call('POST', '/users', { body: body('first') });
    const madeBySecond = await t.call('POST', '/users', { ...as(second), body: body('second') });
    expect(madeByFirst.status, madeByFirst.text).toBe(201);
    expect(madeBySecond.json.items.id).toBe(madeByFirst.json.items.id + 1);
  });
});

describe('each company sees only its own records', () => {
  it('lists its own users, timesheets and breaks, with totals of its own', async () => {
    const a = t.server.seed;
    const b = secondSeed();
    const firstUsers = await get(first, '/users?page_size=100&sort=id');
    const secondUsers = await get(second, '/users?page_size=100&sort=id');
    expect(ids(secondUsers).filter((id) => id <= 16)).toEqual([...b.allActiveUserIds, b.inactiveUserId]);
    expect(ids(firstUsers).filter((id) => id <= 16)).toEqual(expect.arrayContaining([...a.allActiveUserIds]));
    expect(ids(firstUsers).some((id) => ids(secondUsers).includes(id))).toBe(false);
    expect(total(firstUsers)).toBe(ids(firstUsers).length);
    const [firstSheets, secondSheets] = [await get(first, '/timesheets?page_size=100&sort=id'), await get(second, '/timesheets?page_size=100&sort=id')];
    expect([ids(firstSheets), total(firstSheets)]).toEqual([a.timesheetIds, 13]);
    expect([ids(secondSheets), total(secondSheets)]).toEqual([b.timesheetIds, 2]);
    const [firstBreaks, secondBreaks] = [await get(first, '/breaks?page_size=100'), await get(second, '/breaks?page_size=100')];
    expect([total(firstBreaks), total(secondBreaks)]).toEqual([36, 6]);
    expect(ids(secondBreaks)).toEqual([4, 5, 6, 10, 11, 12]);
    expect(ids(firstBreaks).some((id) => ids(secondBreaks).includes(id))).toBe(false);
  });

  it('pages and totals within the company: page 2 of the second company holds its own breaks only', async () => {
    const page = await get(second, '/breaks?page_size=4&page=2');
    expect(ids(page)).toEqual([11, 12]);
    expect(page.json.meta_data.pagination).toMatchObject({ total: 6, last_page: 2, from: 5, to: 6 });
  });

  it('searches within the company: "ada" finds each company its own Adas', async () => {
    const a = await get(first, '/users?search=ada&page_size=100');
    const b = await get(second, '/users?search=ada&page_size=100');
    expect((a.json.items as Array<{ last_name: string }>).map((u) => u.last_name).sort()).toEqual(['Admin', 'Byron']);
    expect((b.json.items as Array<{ last_name: string }>).map((u) => u.last_name)).toEqual(['Ortiz']);
    expect([total(a), total(b)]).toEqual([2, 1]);
    const notes = await get(second, '/timesheets?search=Shift%202');
    expect([ids(notes), total(notes)]).toEqual([[4], 1]);
  });

  it('filters a date_range within the company', async () => {
    const a = await get(first, '/timesheets?date_range=2026-10-01,2026-10-02');
    const b = await get(second, '/timesheets?date_range=2026-10-01,2026-10-02');
    expect([ids(a), ids(b)]).toEqual([[1, 3], [2, 4]]);
    const breaks = await get(second, '/breaks?date_range=2026-10-02,2026-10-02');
    expect([ids(breaks), total(breaks)]).toEqual([[10, 11, 12], 3]);
  });

  it("selects by `ids` among the company's breaks: another company's IDs select nothing", async () => {
    const mixed = await get(first, '/breaks', { ids: [1, 4, 5, 10] });
    expect([ids(mixed), total(mixed)]).toEqual([[1], 1]);
    const others = await get(second, '/breaks', { ids: [1, 2, 3] });
    expect([ids(others), total(others)]).toEqual([[], 0]);
  });

  it('never shows the company a record belongs to: no field names it but §2.2 company_employee_id', async () => {
    for (const path of ['/users', '/timesheets', '/breaks']) {
      const items = (await get(second, `${path}?page_size=100`)).json.items as Array<Record<string, unknown>>;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(Object.keys(item).filter((key) => /company/i.test(key))).toEqual(path === '/users' ? ['company_employee_id'] : []);
    }
  });
});

describe("another company's record is answered as an ID that never existed", () => {
  it("PUT /users/{id} of the other company's user: the same 404 as a never-existing ID, and nothing changes", async () => {
    const target = secondSeed().activeUserIds.employee!;
    const reply = await t.call('PUT', `/users/${target}`, { body: { first_name: 'Hijacked' } });
    const never = await t.call('PUT', `/users/${NEVER}`, { body: { first_name: 'Hijacked' } });
    expect(shape(reply, target)).toEqual(shape(never, NEVER));
    expect(reply.status).toBe(404);
    const after = await get(second, '/users?search=Ortiz');
    expect(after.json.items[0]).toMatchObject({ id: target, first_name: 'Ada' });
  });

  it("PUT /schedules/{id} of the other company's schedule: the same 404, and its owner can still update it", async () => {
    const schedule = secondSeed().scheduleIds[0]!;
    const body = { event_pid: 'evt-1', title: 'Taken over' };
    const reply = await t.call('PUT', `/schedules/${schedule}`, { body });
    const never = await t.call('PUT', `/schedules/${NEVER}`, { body });
    expect(reply.status).toBe(404);
    expect(shape(reply, schedule)).toEqual(shape(never, NEVER));
    expect(t.server.context.schedules.get(schedule)?.title).toBe('Opening shift');
    const own = await t.call('PUT', `/schedules/${schedule}`, { ...as(second), body: { event_pid: 'evt-1', title: 'Still ours' } });
    expect(own.status, own.text).toBe(200);
  });

  it("POST /timesheets for the other company's user: refused as an unknown user, nothing stored", async () => {
    const before = t.server.context.timesheets.size;
    const body = (userId: number) => ({ user_id: userId, start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T17:00:00-06:00' });
    const reply = await t.call('POST', '/timesheets', { body: body(secondSeed().activeUserIds.employee!) });
    const never = await t.call('POST', '/timesheets', { body: body(NEVER) });
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toEqual(violationPairs(never));
    expect(violationPairs(reply)).toEqual(['TS-USER-EXISTS@user_id']);
    expect(t.server.context.timesheets.size).toBe(before);
  });

  it("POST /breaks on the other company's timesheet: refused as an unknown timesheet, nothing stored", async () => {
    const before = t.server.context.breaks.size;
    const body = (timesheetId: number) => ({ timesheet_id: timesheetId, break_rule_id: t.server.seed.breakRuleIds[0], start: '2026-10-01T13:00:00-05:00', end: '2026-10-01T13:20:00-05:00' });
    const reply = await t.call('POST', '/breaks', { body: body(secondSeed().timesheetIds[0]!) });
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toEqual(violationPairs(await t.call('POST', '/breaks', { body: body(NEVER) })));
    expect(violationPairs(reply)).toEqual(['BRK-REFERENCES-EXIST@timesheet_id']);
    // The other company's break rule is unknown too.
    const rule = await t.call('POST', '/breaks', { body: { ...body(t.server.seed.timesheetIds[0]!), break_rule_id: secondSeed().breakRuleIds[0] } });
    expect(violationPairs(rule)).toEqual(['BRK-REFERENCES-EXIST@break_rule_id']);
    expect(t.server.context.breaks.size).toBe(before);
  });

  it("POST /schedules naming the other company's users (user_ids, assigned_by) or job: refused as unknown ones, nothing stored", async () => {
    const before = t.server.context.schedules.size;
    const b = secondSeed();
    const schedule = { title: 'Cross', repeat: false, all_day: true, color: 'blue', start_date: '12/01/2026', end_date: '12/01/2026' };
    const reply = await t.call('POST', '/schedules', { body: { ...schedule, assigned_by: b.activeUserIds.admin, user_ids: [b.activeUserIds.employee], job_id: b.jobIds[0] } });
    const never = await t.call('POST', '/schedules', { body: { ...schedule, assigned_by: NEVER, user_ids: [NEVER], job_id: NEVER } });
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toEqual(violationPairs(never));
    expect(violationPairs(reply)).toEqual(['SCH-ASSIGNED-BY-ACTIVE@assigned_by', 'SCH-USER-IDS-ACTIVE@user_ids', 'null@job_id']);
    expect(t.server.context.schedules.size).toBe(before);
  });

  it('keeps e-mail addresses unique within a company only: an address in use at the other company is taken', async () => {
    const email = 'nora.owner@second.seed.clockcheck.test';
    const reply = await t.call('POST', '/users', { body: { first_name: 'Nora', last_name: 'Owner', email, password: 'Valid-pass1' } });
    expect(reply.status, reply.text).toBe(201);
    const again = await t.call('POST', '/users', { ...as(second), body: { first_name: 'Nora', last_name: 'Owner', email, password: 'Valid-pass1' } });
    expect(violationPairs(again)).toEqual(['null@email']);
  });
});

describe('webhook subscriptions per company', () => {
  const SECRET = 'whsec-two-companies';
  let sinks: Sink[] = [];
  afterEach(async () => {
    await Promise.all(sinks.map((s) => s.close()));
    sinks = [];
  });
  const created = (d: Delivery) => (d.payload.ok && d.names.operation === 'users_created' ? Number(d.names.id) : null);
  const createUser = async (who: Who, name: string) =>
    (await t.call('POST', '/users', { ...as(who), body: { first_name: name, last_name: 'Hook', email: `${name}.hook@example.test`, password: 'Valid-pass1' } })).json.items.id as number;

  it("reads each company's own subscription, and notifies each company's changes to its own URL only", async () => {
    expect((await get(second, '/webhooks/subscription')).json.items.url).toBe(secondSeed().webhookUrl);
    sinks = [await startSink({ secret: SECRET }), await startSink({ secret: SECRET })];
    const [sinkA, sinkB] = sinks as [Sink, Sink];
    expect((await t.call('POST', '/webhooks/subscription', { body: { url: sinkA.url, secret: SECRET } })).status).toBe(201);
    expect((await t.call('POST', '/webhooks/subscription', { ...as(second), body: { url: sinkB.url, secret: SECRET } })).status).toBe(201);
    expect((await get(first, '/webhooks/subscription')).json.items.url).toBe(sinkA.url);

    const byFirst = await createUser(first, 'Anna');
    const bySecond = await createUser(second, 'Bert');
    expect(await sinkA.waitFor((d) => created(d) === byFirst, 5000)).not.toBeNull();
    expect(await sinkB.waitFor((d) => created(d) === bySecond, 5000)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sinkA.deliveries.map(created)).toEqual([byFirst]);
    expect(sinkB.deliveries.map(created)).toEqual([bySecond]);

    // One company's unsubscribe leaves the other's working.
    expect((await t.call('DELETE', '/webhooks/subscription/unsubscribe')).status).toBe(200);
    expect((await get(first, '/webhooks/subscription')).status).toBe(404);
    expect((await get(second, '/webhooks/subscription')).json.items.url).toBe(sinkB.url);
    const afterFirst = await createUser(first, 'Carl');
    const afterSecond = await createUser(second, 'Dora');
    expect(await sinkB.waitFor((d) => created(d) === afterSecond, 5000)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sinkA.deliveries.map(created)).not.toContain(afterFirst);
    expect(sinkB.deliveries.map(created)).toEqual([bySecond, afterSecond]);
    expect((await t.call('DELETE', '/webhooks/subscription/unsubscribe', as(second))).status).toBe(200);
  });
});

describe('tokens and companies', () => {
  it("revokes each company's token on its own", async () => {
    const own = await startTestServer({ secondCompanyToken: SECOND_TOKEN });
    try {
      own.server.secondCompany!.revokeToken();
      expect((await own.call('GET', '/users', as(second))).status).toBe(401);
      expect((await own.call('GET', '/users')).status).toBe(200);
      own.server.revokeToken();
      expect((await own.call('GET', '/users')).status).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('refuses a second token that is empty or the first company\'s', async () => {
    await expect(startReferenceServer({ token: 'same-token', secondCompanyToken: 'same-token' })).rejects.toBeInstanceOf(UsageError);
    await expect(startReferenceServer({ token: 'a-token', secondCompanyToken: '' })).rejects.toBeInstanceOf(UsageError);
  });

  it('serves one company, as ever, without a second token: the second token is refused like any wrong one', async () => {
    const one = await startTestServer();
    try {
      expect(one.server.secondCompany).toBeNull();
      expect(one.server.seed.allActiveUserIds).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10, 12]);
      expect((await one.call('GET', '/users', as(second))).status).toBe(401);
    } finally {
      await one.close();
    }
  });

  it("gives the second company a timezone of its own when asked: its seed's times and its defaults", async () => {
    const zoned = await startTestServer({ secondCompanyToken: SECOND_TOKEN, secondCompanyTimezone: 'Europe/Berlin' });
    try {
      const sheets = await zoned.call('GET', '/timesheets', as(second));
      expect(sheets.json.items[0]).toMatchObject({ start: '2026-10-01T09:00:00+02:00', clock_in_timezone: 'Europe/Berlin' });
      const user = zoned.server.secondCompany!.seed.activeUserIds.employee!;
      const berlin = await zoned.call('POST', '/timesheets', { ...as(second), body: { user_id: user, start: '2026-12-01T09:00:00+01:00' } });
      expect(berlin.status, berlin.text).toBe(201);
      const chicago = await zoned.call('POST', '/timesheets', { ...as(second), body: { user_id: user, start: '2026-12-01T09:00:00-06:00' } });
      expect(violationPairs(chicago)).toEqual(['TS-OFFSET-DEFAULT-TIMEZONE@start']);
    } finally {
      await zoned.close();
    }
  });
});

describe('rate-limit windows: shared or per token (§8)', () => {
  const remaining = (reply: Reply) => Number(reply.headers['x-ratelimit-remaining']);

  it('shared: a call with one token moves the other token\'s remaining too', async () => {
    const shared = await startTestServer({ secondCompanyToken: SECOND_TOKEN, rateLimit: { limit: 10, windowMs: 60_000 } });
    try {
      expect(shared.server.rateLimitWindows).toBe('shared');
      expect(remaining(await shared.call('GET', '/users'))).toBe(9);
      expect(remaining(await shared.call('GET', '/users', as(second)))).toBe(8);
      expect(remaining(await shared.call('GET', '/users'))).toBe(7);
    } finally {
      await shared.close();
    }
  });

  it("per-token: each company's token counts in its own window; refused calls without a token count in neither", async () => {
    const perToken = await startTestServer({ secondCompanyToken: SECOND_TOKEN, rateLimit: { limit: 3, windowMs: 60_000 }, rateLimitWindows: 'per-token' });
    try {
      expect(remaining(await perToken.call('GET', '/users'))).toBe(2);
      expect(remaining(await perToken.call('GET', '/users', as(second)))).toBe(2);
      expect(remaining(await perToken.call('GET', '/users'))).toBe(1);
      expect((await perToken.call('GET', '/users', { authorization: 'wrong' })).status).toBe(401);
      expect(remaining(await perToken.call('GET', '/users'))).toBe(0);
      expect((await perToken.call('GET', '/users')).status).toBe(429);
      expect(remaining(await perToken.call('GET', '/users', as(second)))).toBe(1);
    } finally {
      await perToken.close();
    }
  });
});
