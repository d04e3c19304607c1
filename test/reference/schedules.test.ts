import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withChange, expectRejected } from '../support/minimal-pair.ts';
import { baselines, startTestServer, violationPairs, type TestServer } from '../support/reference-client.ts';

let t: TestServer;
let base: ReturnType<typeof baselines>;

beforeAll(async () => {
  t = await startTestServer();
  base = baselines(t.server);
});

afterAll(async () => {
  await t?.close();
});

const schedule = (change: Record<string, unknown> = {}) => withChange(base.schedule(), change);

const create = (body: unknown) => t.call('POST', '/schedules', { body });
const update = (id: number, body: unknown) => t.call('PUT', `/schedules/${id}`, { body });

/** A stored schedule's ID, made from the baseline with a change. */
async function stored(change: Record<string, unknown> = {}): Promise<number> {
  const reply = await create(schedule(change));
  expect(reply.status, reply.text).toBe(201);
  return reply.json.items.id as number;
}

describe('POST /schedules', () => {
  it('accepts the baseline schedule with 201 and returns the stored record', async () => {
    const reply = await create(schedule());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json.items).toMatchObject({ title: 'Baseline shift', start_date: '12/01/2026', start_time: '09:00', end_time: '17:00', user_ids: [t.server.seed.activeUserIds.employee] });
    expect(typeof reply.json.items.id).toBe('number');
    expect(typeof reply.json.message).toBe('string');
  });

  it('stores the company timezone (America/Chicago) when timezone is omitted', async () => {
    const reply = await create(schedule());
    expect(reply.json.items.timezone).toBe('America/Chicago');
  });

  it('keeps a given IANA timezone', async () => {
    const reply = await create(schedule({ timezone: 'Europe/London' }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items.timezone).toBe('Europe/London');
  });

  it.each([
    ['assigned_by', 'SCH-ASSIGNED-BY-REQUIRED'],
    ['title', 'SCH-TITLE-REQUIRED'],
    ['repeat', 'SCH-REPEAT-REQUIRED'],
    ['all_day', 'SCH-ALL-DAY-REQUIRED'],
    ['color', 'SCH-COLOR-REQUIRED'],
    ['user_ids', 'SCH-USER-IDS-REQUIRED'],
    ['start_date', 'SCH-START-DATE-REQUIRED'],
    ['end_date', 'SCH-END-DATE-REQUIRED'],
  ])('rejects a schedule without %s with 422 naming %s', async (field, rule) => {
    expectRejected(await create(schedule({ [field]: undefined })), rule, field);
  });

  it.each([
    ['start_date', '02/30/2026', 'a day that does not exist'],
    ['start_date', '2026-12-01', 'the ISO order'],
    ['start_date', '1/5/2026', 'unpadded month and day'],
    ['end_date', '02/30/2026', 'a day that does not exist'],
    ['end_date', '2026-12-01', 'the ISO order'],
    ['end_date', '1/5/2026', 'unpadded month and day'],
    ['start_date', '13/01/2026', 'month 13'],
  ])('rejects %s %j (%s) as SCH-DATE-FORMAT', async (field, value) => {
    expectRejected(await create(schedule({ [field]: value })), 'SCH-DATE-FORMAT', field);
  });

  it.each(['02/28/2026', '02/29/2028', '12/31/2026'])('accepts the real MM/DD/YYYY date %s', async (value) => {
    const reply = await create(schedule({ start_date: value, end_date: value }));
    expect(reply.status, reply.text).toBe(201);
  });

  it('rejects a repeat_end_date that is not MM/DD/YYYY as SCH-DATE-FORMAT', async () => {
    const reply = await create(schedule({ repeat: true, repeat_type: 'daily', repeat_end_date: '2026-12-31' }));
    expectRejected(reply, 'SCH-DATE-FORMAT', 'repeat_end_date');
  });

  it.each([
    ['start_time', '24:00'],
    ['start_time', '7:05'],
    ['start_time', '07:30 PM'],
    ['end_time', '24:00'],
    ['end_time', '7:05'],
    ['end_time', '07:30 PM'],
    ['end_time', '17:60'],
  ])('rejects %s %j as SCH-TIME-FORMAT', async (field, value) => {
    expectRejected(await create(schedule({ [field]: value })), 'SCH-TIME-FORMAT', field);
  });

  it.each([['00:00', '23:59'], ['07:05', '19:30']])('accepts the 24-hour times %s and %s', async (start, end) => {
    const reply = await create(schedule({ start_time: start, end_time: end }));
    expect(reply.status, reply.text).toBe(201);
  });

  it.each(['start_time', 'end_time'])('rejects all_day false without %s as SCH-TIMES-UNLESS-ALL-DAY', async (field) => {
    expectRejected(await create(schedule({ [field]: undefined })), 'SCH-TIMES-UNLESS-ALL-DAY', field);
  });

  it('accepts all_day true without start_time and end_time', async () => {
    const reply = await create(schedule({ all_day: true, start_time: undefined, end_time: undefined }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items.all_day).toBe(true);
  });

  it('accepts repeat true with repeat_type and repeat_end_date', async () => {
    const reply = await create(schedule({ repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items).toMatchObject({ repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' });
  });

  it.each(['repeat_type', 'repeat_end_date'])('rejects repeat true without %s as SCH-REPEAT-FIELDS', async (field) => {
    const body = schedule({ repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026', [field]: undefined });
    expectRejected(await create(body), 'SCH-REPEAT-FIELDS', field);
  });

  it('does not require repeat_type or repeat_end_date when repeat is false', async () => {
    const reply = await create(schedule({ repeat: false }));
    expect(reply.status, reply.text).toBe(201);
  });

  it('accepts a weekly schedule with weeks "monday,wednesday"', async () => {
    const reply = await create(schedule({ repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks: 'monday,wednesday' }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items.weeks).toBe('monday,wednesday');
  });

  it('rejects a weekly schedule without weeks as SCH-WEEKLY-WEEKS', async () => {
    const reply = await create(schedule({ repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026' }));
    expectRejected(reply, 'SCH-WEEKLY-WEEKS', 'weeks');
  });

  it.each(['Monday', 'monday;wednesday', 'mon', 'monday,', ''])('rejects weeks %j as SCH-WEEKS-FORMAT', async (weeks) => {
    const reply = await create(schedule({ repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks }));
    expectRejected(reply, 'SCH-WEEKS-FORMAT', 'weeks');
  });

  it.each(['Mars/Olympus_Mons', 'Not a zone', 'CST', 'america/chicago', '+05:00'])('rejects the timezone %j as SCH-TIMEZONE-NAME', async (timezone) => {
    expectRejected(await create(schedule({ timezone })), 'SCH-TIMEZONE-NAME', 'timezone');
  });

  it('rejects an inactive user in user_ids as SCH-USER-IDS-ACTIVE', async () => {
    const { employee } = t.server.seed.activeUserIds;
    const reply = await create(schedule({ user_ids: [employee, t.server.seed.inactiveUserId] }));
    expectRejected(reply, 'SCH-USER-IDS-ACTIVE', 'user_ids');
  });

  it('rejects an unknown user in user_ids as SCH-USER-IDS-ACTIVE', async () => {
    expectRejected(await create(schedule({ user_ids: [99_999] })), 'SCH-USER-IDS-ACTIVE', 'user_ids');
  });

  it('accepts several active users in user_ids', async () => {
    const reply = await create(schedule({ user_ids: [...t.server.seed.allActiveUserIds] }));
    expect(reply.status, reply.text).toBe(201);
  });

  it('rejects an inactive user as assigned_by with SCH-ASSIGNED-BY-ACTIVE', async () => {
    expectRejected(await create(schedule({ assigned_by: t.server.seed.inactiveUserId })), 'SCH-ASSIGNED-BY-ACTIVE', 'assigned_by');
  });

  it('rejects an unknown user as assigned_by with SCH-ASSIGNED-BY-ACTIVE', async () => {
    expectRejected(await create(schedule({ assigned_by: 99_999 })), 'SCH-ASSIGNED-BY-ACTIVE', 'assigned_by');
  });

  it.each([
    ['title', 42],
    ['repeat', 'false'],
    ['all_day', 0],
    ['user_ids', ['3']],
    ['assigned_by', '1'],
    ['publish', 'yes'],
  ])('rejects %s of the wrong JSON type (%j) as SCH-FIELD-TYPES', async (field, value) => {
    expectRejected(await create(schedule({ [field]: value })), 'SCH-FIELD-TYPES', field);
  });

  it('accepts the optional fields with their types (job, address, publish, event_pid)', async () => {
    const reply = await create(
      schedule({
        event_pid: 'ext-1',
        description: 'Inventory',
        job_id: t.server.seed.jobIds[0],
        publish: false,
        use_different_address: true,
        street: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip_code: '62701',
      }),
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items).toMatchObject({ event_pid: 'ext-1', publish: false, city: 'Springfield' });
  });

  it('rejects an unknown job_id with 422', async () => {
    const reply = await create(schedule({ job_id: 99_999 }));
    expect(reply.status).toBe(422);
    expect(violationPairs(reply)).toContain('null@job_id');
  });

  it.each([
    ['no body', undefined],
    ['an array', '[{"title":"x"}]'],
    ['a string', '"schedule"'],
    ['null', 'null'],
  ])('rejects %s as the payload with 422', async (_, rawBody) => {
    const reply = await t.call('POST', '/schedules', rawBody === undefined ? {} : { rawBody });
    expect(reply.status, reply.text).toBe(422);
  });

  it('stores nothing when a schedule is rejected', async () => {
    const before = t.server.context.schedules.size;
    const first = await stored();
    const rejections = await Promise.all([
      create(schedule({ title: undefined })),
      create(schedule({ start_date: '02/30/2026' })),
      create(schedule({ user_ids: [t.server.seed.inactiveUserId] })),
    ]);
    for (const reply of rejections) expect(reply.status).toBe(422);
    const second = await stored();
    expect(second).toBe(first + 1);
    expect(t.server.context.schedules.size).toBe(before + 2);
  });

  it('never answers a bad schedule payload with a 5xx', async () => {
    const bad: unknown[] = [{}, { title: null }, { user_ids: 'all' }, { user_ids: [null] }, { start_date: 20261201 }, { weeks: ['monday'] }, schedule({ repeat: true, repeat_type: 7, repeat_end_date: 5 })];
    for (const body of bad) {
      const reply = await create(body);
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });
});

describe('PUT /schedules/{schedule_id}', () => {
  it('rejects an update without event_pid as SCH-UPDATE-EVENT-PID', async () => {
    const id = await stored();
    expectRejected(await update(id, { title: 'Renamed' }), 'SCH-UPDATE-EVENT-PID', 'event_pid');
  });

  it('accepts a partial update with event_pid and keeps the fields not sent', async () => {
    const id = await stored({ description: 'Keep me', timezone: 'Europe/Paris' });
    const reply = await update(id, { event_pid: 'evt-1', title: 'Renamed' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items).toMatchObject({
      id,
      event_pid: 'evt-1',
      title: 'Renamed',
      description: 'Keep me',
      timezone: 'Europe/Paris',
      start_date: '12/01/2026',
      start_time: '09:00',
      end_time: '17:00',
      color: 'blue',
    });
  });

  it('accepts update_series on update without storing it as a field', async () => {
    const id = await stored();
    const reply = await update(id, { event_pid: 'evt-series', update_series: true, color: 'red' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items.color).toBe('red');
    expect(reply.json.items).not.toHaveProperty('update_series');
  });

  it('answers 404 for an unknown schedule ID', async () => {
    const reply = await update(99_999, { event_pid: 'evt', title: 'x' });
    expect(reply.status).toBe(404);
    expect(reply.json).toHaveProperty('message');
  });

  it('answers 404 for a non-numeric schedule ID', async () => {
    const reply = await update(Number.NaN, { event_pid: 'evt' });
    expect(reply.status).toBe(404);
    const word = await t.call('PUT', '/schedules/first', { body: { event_pid: 'evt' } });
    expect(word.status).toBe(404);
  });

  it('judges all_day false on the merged record: rejected when the stored schedule has no times', async () => {
    const id = await stored({ all_day: true, start_time: undefined, end_time: undefined });
    expectRejected(await update(id, { event_pid: 'evt', all_day: false }), 'SCH-TIMES-UNLESS-ALL-DAY');
  });

  it('judges all_day false on the merged record: accepted when the update brings the times', async () => {
    const id = await stored({ all_day: true, start_time: undefined, end_time: undefined });
    const reply = await update(id, { event_pid: 'evt', all_day: false, start_time: '08:00', end_time: '12:00' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items).toMatchObject({ all_day: false, start_time: '08:00', end_time: '12:00' });
  });

  it('judges all_day false on the merged record: accepted when the stored schedule already has times', async () => {
    const id = await stored();
    const reply = await update(id, { event_pid: 'evt', all_day: false });
    expect(reply.status, reply.text).toBe(200);
  });

  it('rejects repeat true on update when neither the update nor the stored schedule has repeat_type', async () => {
    const id = await stored();
    const reply = await update(id, { event_pid: 'evt', repeat: true });
    expectRejected(reply, 'SCH-REPEAT-FIELDS', 'repeat_type');
    expect(violationPairs(reply)).toContain('SCH-REPEAT-FIELDS@repeat_end_date');
  });

  it('rejects repeat_type weekly on update when the stored daily schedule has no weeks', async () => {
    const id = await stored({ repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' });
    expectRejected(await update(id, { event_pid: 'evt', repeat_type: 'weekly' }), 'SCH-WEEKLY-WEEKS', 'weeks');
  });

  it('accepts repeat_type weekly on update with weeks', async () => {
    const id = await stored({ repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' });
    const reply = await update(id, { event_pid: 'evt', repeat_type: 'weekly', weeks: 'tuesday,thursday' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.items).toMatchObject({ repeat_type: 'weekly', weeks: 'tuesday,thursday', repeat_end_date: '12/31/2026' });
  });

  it('accepts a change of title on a stored weekly schedule (the stored weeks satisfy the rule)', async () => {
    const id = await stored({ repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks: 'friday' });
    const reply = await update(id, { event_pid: 'evt', title: 'Fridays' });
    expect(reply.status, reply.text).toBe(200);
  });

  it.each([
    ['start_date', '2026-12-01', 'SCH-DATE-FORMAT'],
    ['end_time', '24:00', 'SCH-TIME-FORMAT'],
    ['weeks', 'Monday', 'SCH-WEEKS-FORMAT'],
    ['timezone', 'Mars/Olympus_Mons', 'SCH-TIMEZONE-NAME'],
    ['title', null, 'SCH-TITLE-REQUIRED'],
  ])('rejects %s %j on update as %s', async (field, value, rule) => {
    const id = await stored();
    expectRejected(await update(id, { event_pid: 'evt', [field]: value }), rule, field);
  });

  it('rejects an inactive user in user_ids on update as SCH-USER-IDS-ACTIVE', async () => {
    const id = await stored();
    expectRejected(await update(id, { event_pid: 'evt', user_ids: [t.server.seed.inactiveUserId] }), 'SCH-USER-IDS-ACTIVE', 'user_ids');
  });

  it('rejects an inactive user as assigned_by on update as SCH-ASSIGNED-BY-ACTIVE', async () => {
    const id = await stored();
    expectRejected(await update(id, { event_pid: 'evt', assigned_by: t.server.seed.inactiveUserId }), 'SCH-ASSIGNED-BY-ACTIVE', 'assigned_by');
  });

  it('leaves the stored schedule unchanged when an update is rejected', async () => {
    const id = await stored({ title: 'Original' });
    expect((await update(id, { event_pid: 'evt', title: 'Changed', start_time: '25:00' })).status).toBe(422);
    expect((await update(id, { title: 'Changed' })).status).toBe(422);
    const after = await update(id, { event_pid: 'evt' });
    expect(after.status).toBe(200);
    expect(after.json.items).toMatchObject({ title: 'Original', start_time: '09:00' });
  });
});
