import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withChange, expectRejected } from '../support/minimal-pair.ts';
import { baselines, startTestServer, violationPairs, type Reply, type TestServer } from '../support/reference-client.ts';

let t: TestServer;
let base: ReturnType<typeof baselines>;

beforeAll(async () => {
  t = await startTestServer();
  base = baselines(t.server);
});

afterAll(async () => {
  await t?.close();
});

const sheet = (change: Record<string, unknown> = {}) => withChange(base.timesheet(), change);

const create = (body: unknown) => t.call('POST', '/timesheets', { body });

function expectAccepted(reply: Reply): void {
  expect(reply.status, reply.text).toBe(201);
  expect(typeof reply.json.items.id).toBe('number');
}

async function timesheetTotal(): Promise<number> {
  const reply = await t.call('GET', '/timesheets?page_size=1');
  expect(reply.status).toBe(200);
  return reply.json.meta_data.pagination.total as number;
}

describe('POST /timesheets', () => {
  it('accepts the baseline timesheet with 201 and returns the stored record', async () => {
    const reply = await create(sheet());
    expectAccepted(reply);
    expect(reply.json.items).toMatchObject({
      user_id: t.server.seed.activeUserIds.employee,
      start: '2026-12-01T09:00:00-06:00',
      end: '2026-12-01T17:00:00-06:00',
    });
    expect(typeof reply.json.message).toBe('string');
  });

  it('stores the company timezone (America/Chicago) for clock_in_timezone and clock_out_timezone when omitted', async () => {
    const reply = await create(sheet());
    expect(reply.json.items).toMatchObject({ clock_in_timezone: 'America/Chicago', clock_out_timezone: 'America/Chicago' });
  });

  it('accepts user_id and start alone (every other field is optional)', async () => {
    const reply = await create({ user_id: t.server.seed.activeUserIds.employee, start: '2026-12-01T09:00:00-06:00' });
    expectAccepted(reply);
    expect(reply.json.items.end).toBeNull();
  });

  it('accepts every optional field with its type', async () => {
    const seed = t.server.seed;
    const reply = await create(
      sheet({ job_id: seed.jobIds[0], task_id: seed.taskIds[1], notes: 'Stock count', mileage: 12.5, clock_in_timezone: 'America/Chicago', clock_out_timezone: 'America/Chicago' }),
    );
    expectAccepted(reply);
    expect(reply.json.items).toMatchObject({ job_id: seed.jobIds[0], task_id: seed.taskIds[1], notes: 'Stock count', mileage: 12.5 });
  });

  it.each(['user_id', 'start'])('rejects a timesheet without %s as TS-CREATE-REQUIRED', async (field) => {
    expectRejected(await create(sheet({ [field]: undefined })), 'TS-CREATE-REQUIRED', field);
  });

  it.each([
    ['start', '2026-12-01T09:00:00', 'no offset'],
    ['end', '2026-12-01T17:00:00', 'no offset'],
    ['start', '2026-12-01T15:00:00Z', 'Z instead of a numeric offset'],
    ['start', '2026-12-01T09:00:00.000-06:00', 'fractional seconds'],
    ['start', '2026-12-01T09:00-06:00', 'no seconds'],
    ['start', '2026-12-01 09:00:00-06:00', 'a space instead of T'],
    ['start', '2026-12-01T09:00:00-0600', 'an offset without a colon'],
    ['end', '12/01/2026 17:00', 'a US date'],
  ])('rejects %s %j (%s) as TS-DATETIME-FORMAT', async (field, value) => {
    expectRejected(await create(sheet({ [field]: value })), 'TS-DATETIME-FORMAT', field);
  });

  it('accepts end null (an open timesheet) and stores it as null', async () => {
    const reply = await create(sheet({ end: null }));
    expectAccepted(reply);
    expect(reply.json.items.end).toBeNull();
  });

  it('accepts a summer start at +01:00 with clock_in_timezone Europe/London', async () => {
    const reply = await create({ user_id: t.server.seed.activeUserIds.employee, start: '2026-07-01T09:00:00+01:00', clock_in_timezone: 'Europe/London' });
    expectAccepted(reply);
    expect(reply.json.items.clock_in_timezone).toBe('Europe/London');
  });

  it('rejects a summer start at +00:00 with clock_in_timezone Europe/London as TS-OFFSET-MATCHES-TIMEZONE', async () => {
    const reply = await create({ user_id: t.server.seed.activeUserIds.employee, start: '2026-07-01T09:00:00+00:00', clock_in_timezone: 'Europe/London' });
    expectRejected(reply, 'TS-OFFSET-MATCHES-TIMEZONE', 'start');
  });

  it('accepts a winter start at +00:00 with clock_in_timezone Europe/London (DST is honoured)', async () => {
    const reply = await create({ user_id: t.server.seed.activeUserIds.employee, start: '2026-12-01T09:00:00+00:00', clock_in_timezone: 'Europe/London' });
    expectAccepted(reply);
  });

  it('accepts an end whose offset matches clock_out_timezone although it differs from clock_in_timezone', async () => {
    const reply = await create(
      sheet({ start: '2026-07-01T09:00:00-05:00', end: '2026-07-01T23:00:00+01:00', clock_in_timezone: 'America/Chicago', clock_out_timezone: 'Europe/London' }),
    );
    expectAccepted(reply);
  });

  it('rejects an end whose offset does not match clock_out_timezone as TS-OFFSET-MATCHES-TIMEZONE', async () => {
    const reply = await create(
      sheet({ start: '2026-07-01T09:00:00-05:00', end: '2026-07-01T17:00:00-05:00', clock_in_timezone: 'America/Chicago', clock_out_timezone: 'Europe/London' }),
    );
    expectRejected(reply, 'TS-OFFSET-MATCHES-TIMEZONE', 'end');
    expect(violationPairs(reply)).not.toContain('TS-OFFSET-MATCHES-TIMEZONE@start');
  });

  it('judges end against clock_out_timezone, not clock_in_timezone: end in the company timezone is accepted', async () => {
    const reply = await create({
      user_id: t.server.seed.activeUserIds.employee,
      start: '2026-07-01T09:00:00+01:00',
      end: '2026-07-01T17:00:00-05:00',
      clock_in_timezone: 'Europe/London',
    });
    expectAccepted(reply);
  });

  it('accepts clock_out_timezone null and judges end against the company timezone', async () => {
    expectAccepted(await create(sheet({ clock_out_timezone: null })));
    expectRejected(await create(sheet({ clock_out_timezone: null, end: '2026-12-01T17:00:00-05:00' })), 'TS-OFFSET-DEFAULT-TIMEZONE', 'end');
  });

  it('judges start against the company timezone (America/Chicago) when clock_in_timezone is omitted: -05:00 in December is rejected', async () => {
    expectRejected(await create(sheet({ start: '2026-12-01T09:00:00-05:00' })), 'TS-OFFSET-DEFAULT-TIMEZONE', 'start');
  });

  it('judges end against the company timezone when clock_out_timezone is omitted: -05:00 in December is rejected', async () => {
    expectRejected(await create(sheet({ end: '2026-12-01T17:00:00-05:00' })), 'TS-OFFSET-DEFAULT-TIMEZONE', 'end');
  });

  it('accepts -05:00 in July in the company timezone (Chicago daylight time)', async () => {
    expectAccepted(await create(sheet({ start: '2026-07-01T09:00:00-05:00', end: '2026-07-01T17:00:00-05:00' })));
  });

  it('rejects the UTC offset +00:00 in the company timezone as TS-OFFSET-DEFAULT-TIMEZONE', async () => {
    expectRejected(await create(sheet({ start: '2026-12-01T15:00:00+00:00' })), 'TS-OFFSET-DEFAULT-TIMEZONE', 'start');
  });

  it.each(['Mars/Olympus_Mons', 'CST', 'europe/london'])('rejects clock_in_timezone %j as TS-TIMEZONE-NAME', async (zone) => {
    expectRejected(await create(sheet({ clock_in_timezone: zone })), 'TS-TIMEZONE-NAME', 'clock_in_timezone');
  });

  it('rejects an unknown user_id as TS-USER-EXISTS', async () => {
    expectRejected(await create(sheet({ user_id: 99_999 })), 'TS-USER-EXISTS', 'user_id');
  });

  it.each([
    ['user_id', '3'],
    ['mileage', '3.5'],
    ['notes', 7],
    ['job_id', 1.5],
  ])('rejects %s of the wrong JSON type (%j) as TS-FIELD-TYPES', async (field, value) => {
    expectRejected(await create(sheet({ [field]: value })), 'TS-FIELD-TYPES', field);
  });

  it('rejects an unknown job_id and an unknown task_id with 422', async () => {
    const reply = await create(sheet({ job_id: 99_999, task_id: 99_999 }));
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toEqual(expect.arrayContaining(['null@job_id', 'null@task_id']));
  });

  it('rejects an end before the start with 422', async () => {
    const reply = await create(sheet({ end: '2026-12-01T08:00:00-06:00' }));
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toContain('null@end');
  });

  it('stores nothing when a timesheet is rejected: the GET /timesheets total is unchanged', async () => {
    const before = await timesheetTotal();
    const rejections = await Promise.all([
      create(sheet({ start: '2026-12-01T09:00:00' })),
      create(sheet({ user_id: 99_999 })),
      create(sheet({ start: '2026-12-01T09:00:00-05:00' })),
      create(sheet({ user_id: undefined })),
    ]);
    for (const reply of rejections) expect(reply.status).toBe(422);
    expect(await timesheetTotal()).toBe(before);
    expectAccepted(await create(sheet()));
    expect(await timesheetTotal()).toBe(before + 1);
  });

  it('never answers a bad timesheet payload with a 5xx', async () => {
    const bad: unknown[] = [{}, [], null, 'x', { start: null }, { user_id: 3, start: 20261201 }, sheet({ clock_in_timezone: 5 }), sheet({ end: '2026-13-45T99:99:99-06:00' }), sheet({ start: '2026-12-01T09:00:00+25:00' })];
    for (const body of bad) {
      const reply = await t.call('POST', '/timesheets', { rawBody: JSON.stringify(body) });
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });
});

describe('GET /timesheets', () => {
  it('lists timesheets with the §2.5 pagination block', async () => {
    const reply = await t.call('GET', '/timesheets');
    expect(reply.status).toBe(200);
    expect(reply.json.meta_data.pagination).toMatchObject({ current_page: 1, per_page: 10 });
    expect(reply.json.meta_data.pagination.total).toBeGreaterThanOrEqual(t.server.seed.timesheetIds.length);
    expect(Array.isArray(reply.json.items)).toBe(true);
  });
});
