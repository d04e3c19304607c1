import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoursAndMinutes } from '../../src/reference/laravel-records.ts';
import { breakCreateResponse, breakListResponse, paginationBlock } from '../../src/contract/responses.ts';
import { withChange } from '../support/minimal-pair.ts';
import { baselines, startTestServer, violationPairs, type TestServer } from '../support/reference-client.ts';

// The laravel dialect answers as the Laravel service behind the spec: representations a strict
// reader rejects (1/0 flags, "15.00", wall-clock timesheet times) but the spec allows, since it
// does not show these records. A standard server beside it shows what must stay the same.
let t: TestServer;
let standard: TestServer;
let base: ReturnType<typeof baselines>;

beforeAll(async () => {
  [t, standard] = await Promise.all([startTestServer({ dialect: 'laravel' }), startTestServer()]);
  base = baselines(t.server);
});

afterAll(async () => {
  await Promise.all([t?.close(), standard?.close()]);
});

const SEED_USERS = 'search=seed.clockcheck.test&page_size=100';
const WALL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const createUser = (change: Record<string, unknown> = {}) => t.call('POST', '/users', { body: withChange(base.user(), change) });
const createTimesheet = (change: Record<string, unknown> = {}) => t.call('POST', '/timesheets', { body: withChange(base.timesheet(), change) });

describe('create and update answers', () => {
  it('answers a user create with 200 {items, message}', async () => {
    const reply = await createUser();
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.json).sort()).toEqual(['items', 'message']);
    expect(typeof reply.json.items.id).toBe('number');
    expect(typeof reply.json.message).toBe('string');
  });

  it('answers a user update (PUT) with 200 {items, message}', async () => {
    const id = (await createUser()).json.items.id;
    const reply = await t.call('PUT', `/users/${id}`, { body: { phone: '555-0100' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({ items: { id, phone: '555-0100' }, message: expect.any(String) });
  });

  it('answers a schedule create and update with 200 {items, message}', async () => {
    const created = await t.call('POST', '/schedules', { body: base.schedule() });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ items: { id: expect.any(Number), title: 'Baseline shift' }, message: expect.any(String) });
    const updated = await t.call('PUT', `/schedules/${created.json.items.id}`, { body: { event_pid: 'evt-1', title: 'Renamed' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ items: { title: 'Renamed' }, message: expect.any(String) });
  });

  it('answers a timesheet create with 200 {items, message}', async () => {
    const reply = await createTimesheet();
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.json).sort()).toEqual(['items', 'message']);
  });

  it('answers a webhook subscribe with 200 {items, message}, the subscription as stored', async () => {
    const reply = await t.call('POST', '/webhooks/subscription', { body: { url: 'https://hooks.example.test/laravel' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({ items: { url: 'https://hooks.example.test/laravel' }, message: expect.any(String) });
  });
});

describe('user records', () => {
  it('writes the booleans as 1/0 and pay_rate as a string with two decimals; role_id and billing_rate_type stay integers', async () => {
    const reply = await createUser({ pay_rate: 15, track_mileage: true, role_id: 2, billing_rate_type: 1, job_option: true });
    expect(reply.json.items).toMatchObject({
      active: 1,
      track_location: 0,
      track_mileage: 1,
      timesheet_option: 0,
      schedule_option: 0,
      job_option: 1,
      report_option: 0,
      whoworking_option: 0,
      pay_rate: '15.00',
      role_id: 2,
      billing_rate_type: 1,
    });
  });

  it('writes the default pay_rate 0 as "0.00"', async () => {
    expect((await createUser()).json.items.pay_rate).toBe('0.00');
  });

  it('keeps the stored snake_case field names and never shows the password or its hash', async () => {
    const reply = await createUser({ custom_fields: { '12': 'blue' } });
    expect(Object.keys(reply.json.items)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'company_employee_id', 'custom_fields', 'created_at']));
    expect(reply.json.items.custom_fields).toEqual({ '12': 'blue' });
    expect(reply.json.items).not.toHaveProperty('password_hash');
    expect(reply.text).not.toContain('Valid-pass1');
  });

  it('lists users in the same representation, and filters on the stored booleans (active=0 lists the two inactive users)', async () => {
    const inactive = await t.call('GET', '/users?active=0');
    expect(inactive.status, inactive.text).toBe(200);
    expect(inactive.json.items.map((u: { id: number }) => u.id)).toEqual([4, 11]);
    for (const u of inactive.json.items) expect(u).toMatchObject({ active: 0, track_location: 0, pay_rate: '0.00', role_id: expect.any(Number) });
  });

  it('writes an edited user in the same representation', async () => {
    const id = (await createUser()).json.items.id;
    const reply = await t.call('PUT', `/users/${id}`, { body: { pay_rate: 22, track_location: true } });
    expect(reply.json.items).toMatchObject({ pay_rate: '22.00', track_location: 1, active: 1 });
  });
});

describe('schedule records', () => {
  it('writes repeat, all_day, publish and use_different_address as 1/0', async () => {
    const reply = await t.call('POST', '/schedules', { body: { ...base.schedule(), use_different_address: true, street: '1 Main St' } });
    expect(reply.json.items).toMatchObject({ repeat: 0, all_day: 0, publish: 1, use_different_address: 1, user_ids: [t.server.seed.activeUserIds.employee] });
  });
});

describe('timesheet records', () => {
  it('shows clock_in_time and clock_out_time without offset, duration "H:MM" and task_id/job_id 0 for none, and no start/end', async () => {
    const reply = await createTimesheet();
    expect(reply.json.items).toMatchObject({
      user_id: t.server.seed.activeUserIds.employee,
      clock_in_time: '2026-12-01 09:00:00',
      clock_out_time: '2026-12-01 17:00:00',
      clock_in_timezone: 'America/Chicago',
      clock_out_timezone: 'America/Chicago',
      duration: '8:00',
      job_id: 0,
      task_id: 0,
      notes: null,
      mileage: null,
    });
    expect(reply.json.items).not.toHaveProperty('start');
    expect(reply.json.items).not.toHaveProperty('end');
    expect(reply.json.items).not.toHaveProperty('start_ms');
    expect(Object.keys(reply.json.items)).toEqual(expect.arrayContaining(['id', 'created_at', 'updated_at']));
  });

  it("writes each time as the wall time of its own zone (clock in London, clock out Chicago)", async () => {
    const reply = await createTimesheet({
      clock_in_timezone: 'Europe/London',
      clock_out_timezone: 'America/Chicago',
      start: '2026-12-01T09:00:00+00:00',
      end: '2026-12-01T09:45:00-06:00',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items).toMatchObject({ clock_in_time: '2026-12-01 09:00:00', clock_out_time: '2026-12-01 09:45:00', duration: '6:45' });
  });

  it.each([
    ['2026-12-01T09:00:00-06:00', '2026-12-01T09:45:00-06:00', '0:45'],
    ['2026-12-01T09:00:00-06:00', '2026-12-01T21:05:00-06:00', '12:05'],
    ['2026-12-01T09:00:00-06:00', '2026-12-01T09:45:59-06:00', '0:45'],
    ['2026-12-01T22:00:00-06:00', '2026-12-03T01:30:00-06:00', '27:30'],
  ])('gives %s to %s the duration %s (whole hours, zero-padded minutes)', async (start, end, duration) => {
    const reply = await createTimesheet({ start, end });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items.duration).toBe(duration);
  });

  it('writes an open timesheet with clock_out_time and duration null', async () => {
    const reply = await createTimesheet({ end: null });
    expect(reply.json.items).toMatchObject({ clock_in_time: '2026-12-01 09:00:00', clock_out_time: null, duration: null });
  });

  it('lists the seeded timesheets in the same representation: job and task kept, the open one without clock_out_time', async () => {
    const reply = await t.call('GET', '/timesheets?date_range=2026-10-01,2026-10-20&page_size=100');
    expect(reply.status, reply.text).toBe(200);
    const [first] = reply.json.items;
    expect(first).toMatchObject({ id: 1, clock_in_time: '2026-10-01 09:00:00', clock_out_time: '2026-10-01 17:00:00', duration: '8:00', job_id: 1, task_id: 1 });
    const open = reply.json.items.find((s: { id: number }) => s.id === t.server.seed.openTimesheetId);
    expect(open).toMatchObject({ clock_in_time: '2026-10-20 08:00:00', clock_out_time: null, duration: null, job_id: 0, task_id: 0 });
    for (const sheet of reply.json.items) expect(sheet.clock_in_time).toMatch(WALL_TIME);
  });

  it('still sorts timesheets by their stored instants (sort=-start: the open one of 2026-10-20 first)', async () => {
    const reply = await t.call('GET', '/timesheets?date_range=2026-10-01,2026-10-20&sort=-start&page_size=3');
    expect(reply.json.items.map((s: { id: number }) => s.id)).toEqual([13, 12, 11]);
  });
});

describe('hoursAndMinutes', () => {
  it.each([
    [8 * 3600_000, '8:00'],
    [45 * 60_000, '0:45'],
    [(12 * 60 + 5) * 60_000, '12:05'],
    [59_999, '0:00'],
    [0, '0:00'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(hoursAndMinutes(ms)).toBe(text);
  });
});

describe('sort names: snake_case only', () => {
  const ids = async (query: string) => {
    const reply = await t.call('GET', `/users?${SEED_USERS}&${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.json.items.map((u: { id: number }) => u.id);
  };

  it('sorts by first_name and by role_id then first_name, on the stored values', async () => {
    expect(await ids('sort=first_name')).toEqual([1, 8, 6, 7, 9, 3, 10, 11, 12, 4, 2, 5]);
    expect(await ids('sort=role_id,first_name')).toEqual([1, 9, 6, 11, 2, 8, 7, 3, 10, 12, 4, 5]);
    expect(await ids('sort=-first_name')).toEqual([5, 2, 4, 12, 11, 10, 3, 9, 7, 6, 1, 8]);
  });

  it.each(['firstName', 'roleId', '-firstName', 'first_name,roleId'])('refuses the camelCase name in sort=%s with 422, like an unknown sort name', async (sort) => {
    const reply = await t.call('GET', `/users?sort=${sort}`);
    expect(reply.status, reply.text).toBe(422);
    expect(violationPairs(reply)).toContain('null@sort');
    const offered = String(reply.json.violations[0].message).split('sortable:')[1];
    expect(offered).toContain('first_name');
    expect(offered).not.toMatch(/[A-Z]/);
  });

  it('accepts one-word names, spelled alike in both forms (sort=-id)', async () => {
    expect((await ids('sort=-id'))[0]).toBe(12);
  });
});

describe('lists', () => {
  it('answers {meta_data: {pagination}, items} with a §2.5 block', async () => {
    const reply = await t.call('GET', `/users?${SEED_USERS}`);
    expect(Object.keys(reply.json).sort()).toEqual(['items', 'meta_data']);
    expect(paginationBlock.safeParse(reply.json.meta_data.pagination).success).toBe(true);
  });

  it('writes pagination links with ?page=N only, dropping the other query parameters', async () => {
    const reply = await t.call('GET', '/users?search=seed.clockcheck.test&page_size=5&sort=first_name&page=2');
    const { pagination } = reply.json.meta_data;
    const path = `${t.server.origin}/api/public/users`;
    expect(pagination).toMatchObject({
      first_page_url: `${path}?page=1`,
      prev_page_url: `${path}?page=1`,
      next_page_url: `${path}?page=3`,
      last_page_url: `${path}?page=3`,
    });
  });

  it('clamps a page_size above 100 to 100', async () => {
    // More than 100 breaks exist once 70 are added to the 36 seeded ones.
    const added = await Promise.all(Array.from({ length: 70 }, () => t.call('POST', '/breaks', { body: base.break() })));
    expect(added.every((r) => r.status === 200)).toBe(true);
    const reply = await t.call('GET', '/breaks?page_size=150');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.meta_data.pagination.per_page).toBe(100);
    expect(reply.json.items).toHaveLength(100);
  });
});

describe('breaks: as in the standard dialect (§2.4, §4.4 fix their shape), created with 200', () => {
  it('answers a break create with 200 and the body the standard dialect gives with 201', async () => {
    const [laravel, ours] = await Promise.all([t.call('POST', '/breaks', { body: base.break() }), standard.call('POST', '/breaks', { body: baselines(standard.server).break() })]);
    expect(laravel.status, laravel.text).toBe(200);
    expect(ours.status).toBe(201);
    expect(breakCreateResponse.safeParse(laravel.json).success).toBe(true);
    const comparable = (body: any) => ({ ...body, items: { ...body.items, id: null, created_at: null, updated_at: null } });
    expect(comparable(laravel.json)).toEqual(comparable(ours.json));
  });

  it('lists breaks exactly as the standard dialect does', async () => {
    const [laravel, ours] = await Promise.all([t.call('GET', '/breaks?page_size=3'), standard.call('GET', '/breaks?page_size=3')]);
    expect(breakListResponse.safeParse(laravel.json).success).toBe(true);
    expect(laravel.json.items).toEqual(ours.json.items);
  });
});

describe('errors: as in the standard dialect', () => {
  it('answers a validation failure with 422 {message, errors, violations}', async () => {
    const reply = await createUser({ password: 'short' });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(['errors', 'message', 'violations']);
    expect(reply.json.errors).toHaveProperty('password');
  });

  it('answers a missing token with 401 {message: "Unauthenticated."}', async () => {
    const reply = await t.call('GET', '/users', { authorization: null });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers an unknown ID with 404 and malformed JSON with 400', async () => {
    expect((await t.call('PUT', '/users/99999', { body: { phone: '1' } })).status).toBe(404);
    expect((await t.call('POST', '/users', { rawBody: '{"first_name": ' })).status).toBe(400);
  });
});
