import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakCreateResponse, breakListResponse } from '../../src/contract/responses.ts';
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

const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const LISTED_FIELDS = ['break_rule_id', 'created_at', 'duration_in_seconds', 'end', 'id', 'start', 'updated_at'];

const brk = (change: Record<string, unknown> = {}) => withChange(base.break(), change);

const create = (body: unknown) => t.call('POST', '/breaks', { body });
const list = (query = '', body?: unknown) => t.call('GET', `/breaks${query}`, body === undefined ? {} : { body });

async function breakTotal(): Promise<number> {
  const reply = await list('?page_size=1');
  expect(reply.status).toBe(200);
  return reply.json.meta_data.pagination.total as number;
}

describe('POST /breaks', () => {
  it('answers 201 with {items, message}: the break in its create form', async () => {
    const reply = await create(brk());
    expect(reply.status, reply.text).toBe(201);
    expect(breakCreateResponse.safeParse(reply.json).success).toBe(true);
    expect(Object.keys(reply.json).sort()).toEqual(['items', 'message']);
    expect(typeof reply.json.message).toBe('string');
    expect(reply.json.message.length).toBeGreaterThan(0);
  });

  it('names the length `duration` (not duration_in_seconds) and carries timesheet_id in the create form', async () => {
    const body = brk();
    const { json } = await create(body);
    expect(json.items).toMatchObject({
      timesheet_id: body.timesheet_id,
      break_rule_id: body.break_rule_id,
      start: body.start,
      end: body.end,
      duration: 1200,
    });
    expect(json.items).not.toHaveProperty('duration_in_seconds');
    expect(typeof json.items.id).toBe('number');
  });

  it('gives created_at and updated_at as YYYY-MM-DDTHH:MM:SS without offset', async () => {
    const { json } = await create(brk());
    expect(json.items.created_at).toMatch(NAIVE);
    expect(json.items.updated_at).toMatch(NAIVE);
  });

  it('computes duration as end minus start in seconds, across different offsets', async () => {
    // 13:00-05:00 is 18:00Z; 19:20:30+01:00 is 18:20:30Z: 1230 seconds.
    const reply = await create(brk({ start: '2026-10-01T13:00:00-05:00', end: '2026-10-01T19:20:30+01:00' }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items.duration).toBe(1230);
  });

  it('lists a created break with duration_in_seconds equal to its created duration, in the list form', async () => {
    const created = await create(brk({ start: '2026-10-01T16:00:00-05:00', end: '2026-10-01T16:07:30-05:00' }));
    expect(created.status).toBe(201);
    const listed = await list('', { ids: [created.json.items.id] });
    expect(listed.status).toBe(200);
    expect(breakListResponse.safeParse(listed.json).success).toBe(true);
    expect(listed.json.items).toHaveLength(1);
    const item = listed.json.items[0];
    expect(Object.keys(item).sort()).toEqual(LISTED_FIELDS);
    expect(item).toMatchObject({
      id: created.json.items.id,
      duration_in_seconds: 450,
      start: '2026-10-01T16:00:00-05:00',
      end: '2026-10-01T16:07:30-05:00',
      created_at: created.json.items.created_at,
    });
  });

  it('accepts a break that touches both ends of its timesheet exactly', async () => {
    expect((await create(brk({ start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T09:15:00-05:00' }))).status).toBe(201);
    expect((await create(brk({ start: '2026-10-01T16:45:00-05:00', end: '2026-10-01T17:00:00-05:00' }))).status).toBe(201);
  });

  it('rejects a break that starts before its timesheet as BRK-WITHIN-TIMESHEET', async () => {
    expectRejected(await create(brk({ start: '2026-10-01T08:50:00-05:00' })), 'BRK-WITHIN-TIMESHEET', 'start');
  });

  it('rejects a break that ends after its closed timesheet ends as BRK-WITHIN-TIMESHEET', async () => {
    expectRejected(await create(brk({ start: '2026-10-01T16:50:00-05:00', end: '2026-10-01T17:10:00-05:00' })), 'BRK-WITHIN-TIMESHEET', 'end');
  });

  it('rejects a break wholly after its closed timesheet as BRK-WITHIN-TIMESHEET', async () => {
    expectRejected(await create(brk({ start: '2026-10-01T18:00:00-05:00', end: '2026-10-01T18:15:00-05:00' })), 'BRK-WITHIN-TIMESHEET', 'end');
  });

  it('rejects a break written in another offset that falls outside its timesheet (judged by instant)', async () => {
    // 09:30+01:00 is 03:30-05:00, before the timesheet's 09:00-05:00 start.
    expectRejected(await create(brk({ start: '2026-10-01T09:30:00+01:00', end: '2026-10-01T13:20:00-05:00' })), 'BRK-WITHIN-TIMESHEET', 'start');
  });

  it('accepts a break in an open timesheet, even days after its start', async () => {
    const reply = await create(brk({ timesheet_id: t.server.seed.openTimesheetId, start: '2026-10-25T12:00:00-05:00', end: '2026-10-25T12:30:00-05:00' }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.items).toMatchObject({ timesheet_id: t.server.seed.openTimesheetId, duration: 1800 });
  });

  it('rejects a break before the start of an open timesheet as BRK-WITHIN-TIMESHEET', async () => {
    const reply = await create(brk({ timesheet_id: t.server.seed.openTimesheetId, start: '2026-10-19T12:00:00-05:00', end: '2026-10-19T12:30:00-05:00' }));
    expectRejected(reply, 'BRK-WITHIN-TIMESHEET', 'start');
  });

  it('rejects an end before the start as BRK-END-AFTER-START', async () => {
    expectRejected(await create(brk({ start: '2026-10-01T13:20:00-05:00', end: '2026-10-01T13:00:00-05:00' })), 'BRK-END-AFTER-START', 'end');
  });

  it('rejects an unknown break_rule_id as BRK-REFERENCES-EXIST', async () => {
    expectRejected(await create(brk({ break_rule_id: 99_999 })), 'BRK-REFERENCES-EXIST', 'break_rule_id');
  });

  it('accepts each seeded break rule', async () => {
    for (const id of t.server.seed.breakRuleIds) expect((await create(brk({ break_rule_id: id }))).status).toBe(201);
  });

  it('rejects an unknown timesheet_id as BRK-REFERENCES-EXIST', async () => {
    expectRejected(await create(brk({ timesheet_id: 99_999 })), 'BRK-REFERENCES-EXIST', 'timesheet_id');
  });

  it.each(['timesheet_id', 'break_rule_id', 'start', 'end'])('rejects a break without %s as BRK-CREATE-REQUIRED', async (field) => {
    expectRejected(await create(brk({ [field]: undefined })), 'BRK-CREATE-REQUIRED', field);
  });

  it.each([
    ['start', '2026-10-01T13:00:00'],
    ['end', '2026-10-01T13:20:00'],
    ['start', '2026-10-01T18:00:00Z'],
    ['end', '2026-10-01T13:20-05:00'],
  ])('rejects %s %j as BRK-DATETIME-FORMAT', async (field, value) => {
    expectRejected(await create(brk({ [field]: value })), 'BRK-DATETIME-FORMAT', field);
  });

  it('stores nothing when a break is rejected: the GET /breaks total is unchanged', async () => {
    const before = await breakTotal();
    const rejections = await Promise.all([
      create(brk({ start: '2026-10-01T08:00:00-05:00' })),
      create(brk({ break_rule_id: 99_999 })),
      create(brk({ end: undefined })),
      create(brk({ start: '2026-10-01T13:00:00' })),
    ]);
    for (const reply of rejections) expect(reply.status).toBe(422);
    expect(await breakTotal()).toBe(before);
    expect((await create(brk())).status).toBe(201);
    expect(await breakTotal()).toBe(before + 1);
  });

  it('never answers a bad break payload with a 5xx', async () => {
    const bad: unknown[] = [{}, [], null, 7, { timesheet_id: '1' }, brk({ timesheet_id: null }), brk({ start: 5 }), brk({ end: '2026-10-01T25:00:00-05:00' }), brk({ timesheet_id: 1.5 })];
    for (const body of bad) {
      const reply = await t.call('POST', '/breaks', { rawBody: JSON.stringify(body) });
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500);
    }
  });
});

describe('GET /breaks with an ids body', () => {
  it('answers {meta_data: {pagination}, items} with breaks in the list form', async () => {
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(breakListResponse.safeParse(reply.json).success).toBe(true);
    for (const item of reply.json.items) {
      expect(Object.keys(item).sort()).toEqual(LISTED_FIELDS);
      expect(item.created_at).toMatch(NAIVE);
    }
  });

  it('gives every seeded break a duration_in_seconds equal to end minus start', async () => {
    const reply = await list('?page_size=100');
    for (const item of reply.json.items) {
      expect(item.duration_in_seconds).toBe((Date.parse(item.end) - Date.parse(item.start)) / 1000);
    }
  });

  it.each([
    ['absent (no body)', undefined],
    ['an empty object', {}],
    ['ids null', { ids: null }],
    ['ids empty', { ids: [] }],
  ])('returns all breaks when the body is %s', async (_, body) => {
    const total = await breakTotal();
    expect(total).toBeGreaterThanOrEqual(t.server.seed.breakCount);
    const reply = await list('?page_size=100', body);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.meta_data.pagination.total).toBe(total);
    expect(reply.json.items).toHaveLength(Math.min(total, 100));
  });

  it('returns only the breaks whose IDs are given', async () => {
    const reply = await list('?page_size=100', { ids: [2, 5, 11] });
    expect(reply.status).toBe(200);
    expect(reply.json.items.map((b: { id: number }) => b.id)).toEqual([2, 5, 11]);
    expect(reply.json.meta_data.pagination.total).toBe(3);
  });

  it('returns one break for one ID, and none for an ID that does not exist', async () => {
    expect((await list('', { ids: [7] })).json.items.map((b: { id: number }) => b.id)).toEqual([7]);
    const none = await list('', { ids: [99_999] });
    expect(none.status).toBe(200);
    expect(none.json.items).toEqual([]);
    expect(none.json.meta_data.pagination.total).toBe(0);
  });

  it('paginates within the selected IDs', async () => {
    const reply = await list('?page_size=2&page=2', { ids: [1, 2, 3, 4, 5] });
    expect(reply.json.items.map((b: { id: number }) => b.id)).toEqual([3, 4]);
    expect(reply.json.meta_data.pagination).toMatchObject({ total: 5, last_page: 3, from: 3, to: 4 });
  });

  it.each([
    ['ids "x"', { ids: 'x' }],
    ['ids of strings', { ids: ['1'] }],
    ['ids of fractions', { ids: [1.5] }],
    ['ids an object', { ids: { a: 1 } }],
  ])('rejects %s with 422', async (_, body) => {
    const reply = await list('', body);
    expect(reply.status, reply.text).toBe(422);
    expect(violationPairs(reply)).toContain('null@ids');
  });

  it('rejects a body that is not a JSON object with 422 and malformed JSON with 400', async () => {
    expect((await t.call('GET', '/breaks', { rawBody: '[1,2]' })).status).toBe(422);
    const malformed = await t.call('GET', '/breaks', { rawBody: '{"ids": [1,' });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toHaveProperty('message');
  });
});
