import { describe, expect, it } from 'vitest';
import type { TargetRequest } from '../../../src/client/client.ts';
import type { Exchange, HttpMethod } from '../../../src/client/exchange.ts';
import type { Clock } from '../../../src/clock.ts';
import { defaultProfile } from '../../../src/profile/profile.ts';
import { READ_PAGE_SIZE, readBackRequests } from '../../../src/records/read-back/read-back-check.ts';
import { ReadBackWatch } from '../../../src/records/read-back/read-back-watch.ts';

const API = 'https://target.test/api/public';
let nextId = 1;

/** An exchange as the run keeps it: a request with its JSON body and the answer's JSON. */
function exchange(method: HttpMethod, path: string, body: unknown, status: number, json: unknown): Exchange {
  const id = nextId++;
  const text = JSON.stringify(json);
  return {
    id,
    startedAt: new Date(id * 1000).toISOString(),
    sentAtMs: id * 1000,
    durationMs: 5,
    request: { method, url: `${API}${path}`, headers: {}, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
    response: { status, headers: {}, body: text, bodyBytes: text.length, bodyTruncated: false, json },
  };
}

/** A target whose lists answer from `records` (by kind): GET /users and /timesheets page them, GET /breaks selects by `ids`. */
function target(records: { users: Record<string, unknown>[]; timesheets: Record<string, unknown>[]; breaks: Record<string, unknown>[] }) {
  const sent: TargetRequest[] = [];
  const send = async (request: TargetRequest): Promise<Exchange> => {
    sent.push(request);
    const path = request.path ?? '';
    const query = request.query ?? {};
    const size = Number(query.page_size ?? 10);
    const page = Number(query.page ?? 1);
    let items = path === '/users' ? records.users : path === '/timesheets' ? records.timesheets : records.breaks;
    if (path === '/breaks') {
      const ids = (request.json as { ids?: number[] } | undefined)?.ids;
      if (ids) items = items.filter((b) => ids.includes(b.id as number));
    }
    if (typeof query.search === 'string') items = items.filter((u) => String(u.email).includes(query.search as string));
    const lastPage = Math.max(1, Math.ceil(items.length / size));
    const json = { meta_data: { pagination: { current_page: page, last_page: lastPage, per_page: size, total: items.length } }, items: items.slice((page - 1) * size, page * size) };
    return exchange('GET', path, request.json, 200, json);
  };
  return { send, sent };
}

function clock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  let now = 0;
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const profile = defaultProfile();
const deps = (send: (r: TargetRequest) => Promise<Exchange>, c = clock()) => ({ send, profile, clock: c, nonce: 'k3x9', maxRequests: 6, replay: 'clockcheck run --only records/read-back' });

/** A watch that saw the run create a user, edit it, create a timesheet and a break. */
function watched(): ReadBackWatch {
  const watch = new ReadBackWatch(profile);
  watch.observe(exchange('POST', '/users', { first_name: 'Zoë 🕒', last_name: 'Check', email: 'clockcheck.k3x9.1@example.com', password: 'Valid-pass1' }, 201, { items: { id: 41 } }));
  watch.observe(exchange('PUT', '/users/41', { role_id: 2 }, 200, { items: { id: 41, role_id: 2 } }));
  watch.observe(exchange('POST', '/timesheets', { user_id: 41, start: '2026-01-05T09:00:00+05:30', mileage: 12.75, notes: 'R&D' }, 201, { items: { id: 7 } }));
  watch.observe(exchange('POST', '/breaks', { timesheet_id: 7, break_rule_id: 1, start: '2026-01-05T12:00:00+05:30', end: '2026-01-05T12:30:00+05:30' }, 201, { items: { id: 90 }, message: 'ok' }));
  // Not kept: a refused create, a GET, a schedule.
  watch.observe(exchange('POST', '/users', { first_name: 'X' }, 422, { message: 'invalid' }));
  watch.observe(exchange('GET', '/users', undefined, 200, { items: [] }));
  watch.observe(exchange('POST', '/schedules', { title: 'x' }, 201, { items: { id: 3 } }));
  return watch;
}

const stored = {
  users: [{ id: 41, first_name: 'Zoë 🕒', last_name: 'Check', email: 'clockcheck.k3x9.1@example.com', role_id: 2, track_location: 0, track_mileage: 0, pay_rate: '0.00', billing_rate_type: 0 }],
  timesheets: [{ id: 7, user_id: 41, start: '2026-01-05T03:30:00Z', mileage: '12.75', notes: 'R&D' }],
  breaks: [{ id: 90, break_rule_id: 1, start: '2026-01-05T12:00:00+05:30', end: '2026-01-05T12:30:00+05:30', duration_in_seconds: 1800 }],
};

describe('readBackRequests', () => {
  it('plans a search and a walk for users, a walk for timesheets, an ids read per hundred breaks, and nothing for nothing written', () => {
    expect(readBackRequests({ user: 0, timesheet: 0, break: 0 })).toBe(0);
    expect(readBackRequests({ user: 89, timesheet: 58, break: 36 })).toBe(1 + 2 + 2 + 1);
    expect(readBackRequests({ user: 0, timesheet: 0, break: READ_PAGE_SIZE + 1 })).toBe(2);
  });
});

describe('ReadBackWatch', () => {
  it('keeps the accepted creates and edits of users, timesheets and breaks, nothing else', () => {
    expect(watched().counts).toEqual({ user: 1, timesheet: 1, break: 1 });
  });

  it('passes a target that stores what it was sent, read in one request per list, with the fields it judged', async () => {
    const { send, sent } = target(stored);
    const result = await watched().check(deps(send));
    expect(result).toMatchObject({ status: 'passed', findings: [] });
    expect(result.reason).toMatch(/^read back 1 of 1 user, 1 of 1 timesheet, 1 of 1 break the run wrote, in 3 requests; 15 fields judged$/);
    expect(sent.map((r) => `${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.json ?? null)}`)).toEqual([
      '/breaks {"page_size":100} {"ids":[90]}',
      '/users {"search":"k3x9","page_size":100} null',
      '/timesheets {"date_range":"2026-01-04,2026-01-06","page_size":100} null',
    ]);
  });

  it('fails each field that reads back otherwise, under its rule, after reading again once after the settle time', async () => {
    const changed = {
      users: [{ ...stored.users[0], first_name: 'Zoë ?', role_id: 3 }],
      timesheets: [{ ...stored.timesheets[0], mileage: 13, notes: 'R&amp;D' }],
      breaks: [{ ...stored.breaks[0], start: '2026-01-05T12:00:00-06:00' }],
    };
    const { send } = target(changed);
    const c = clock();
    const result = await watched().check(deps(send, c));
    expect(c.slept).toEqual([2000]);
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => `${f.ruleId} ${f.actual}`).sort()).toEqual([
      'STORE-DATETIME start "2026-01-05T12:00:00-06:00" in the list read',
      'STORE-EDIT role_id 3 in the list read',
      'STORE-NUMBER mileage 13 in the list read',
      'STORE-TEXT first_name "Zo\\u{eb} ?" in the list read',
      'STORE-TEXT notes "R&amp;D" in the list read',
    ]);
    expect(result.findings.find((f) => f.ruleId === 'STORE-EDIT')?.expected).toBe('user 41: role_id 2, as the edit wrote it (before the edit: 3)');
  });

  it('passes a target whose reads show a write only after a while (no consistency delay is promised either way)', async () => {
    const late = { ...stored, users: [{ ...stored.users[0], role_id: 3 }] };
    const { send } = target(late);
    const c = clock();
    const watch = watched();
    const checking = watch.check({ ...deps(send, c), clock: { ...c, sleep: async (ms) => void (c.slept.push(ms), (late.users[0]!.role_id = 2)) } });
    expect(await checking).toMatchObject({ status: 'passed' });
  });

  it('fails BRK-IDS-FILTER when a whole ids answer leaves out a break the run created, also when read again', async () => {
    const { send } = target({ ...stored, breaks: [] });
    const result = await watched().check(deps(send));
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.ruleId)).toEqual(['BRK-IDS-FILTER']);
  });

  it('names the checks whose writes differ (Finding.writtenBy, the expectation) and replays them with the read-back', async () => {
    const watch = new ReadBackWatch(profile);
    watch.observe(exchange('POST', '/users', { first_name: 'Zoë 🕒', last_name: 'Check', email: 'clockcheck.k3x9.1@example.com', password: 'Valid-pass1' }, 201, { items: { id: 41 } }), 'stored/user-text-in-any-script');
    watch.observe(exchange('PUT', '/users/41', { role_id: 2 }, 200, { items: { id: 41 } }), 'users/edit-valid');
    // A write outside every check (the calls that meet the checks' needs) names none.
    watch.observe(exchange('POST', '/timesheets', { user_id: 41, start: '2026-01-05T09:00:00+05:30', notes: 'R&D' }, 201, { items: { id: 7 } }));
    const { send } = target({ ...stored, users: [{ ...stored.users[0], first_name: 'Zoë ?' }], timesheets: [{ ...stored.timesheets[0], notes: 'R&amp;D' }] });
    const result = await watch.check(deps(send));
    const byRule = (field: string) => result.findings.find((f) => f.actual.startsWith(field));
    expect(byRule('first_name')).toMatchObject({ ruleId: 'STORE-TEXT', writtenBy: ['stored/user-text-in-any-script', 'users/edit-valid'] });
    expect(byRule('first_name')?.expected).toMatch(/^user 41 \(written by stored\/user-text-in-any-script, users\/edit-valid\): /);
    expect(byRule('notes')).toMatchObject({ ruleId: 'STORE-TEXT' });
    expect(byRule('notes')).not.toHaveProperty('writtenBy');
    expect(result.replay).toBe('clockcheck run --only records/read-back,stored/user-text-in-any-script,users/edit-valid');
  });

  it('asks for the breaks a list showed in the room left in its ids read, and fails an ids filter that drops some of many', async () => {
    const listedBreaks = Array.from({ length: 12 }, (_, i) => ({ ...stored.breaks[0], id: 100 + i }));
    const watch = watched();
    // A page of breaks another check listed; the run wrote one break (90).
    watch.observe(exchange('GET', '/breaks', undefined, 200, { items: listedBreaks }));
    const all = { ...stored, breaks: [...stored.breaks, ...listedBreaks] };
    const { send, sent } = target(all);
    expect(await watch.check(deps(send))).toMatchObject({ status: 'passed' });
    expect(sent[0]?.json).toEqual({ ids: [90, ...listedBreaks.map((b) => b.id)] });
    // An ids filter that keeps only the first ten IDs it is given.
    const firstTen = async (request: TargetRequest) => send(request.path === '/breaks' ? { ...request, json: { ids: (request.json as { ids: number[] }).ids.slice(0, 10) } } : request);
    const result = await watch.check(deps(firstTen));
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.ruleId)).toEqual(['BRK-IDS-FILTER']);
    expect(result.findings[0]?.actual).toMatch(/^3 left out of the whole answer \(109, 110, 111\)/);
    // Listed breaks alone are never read: a run that wrote no break sends no ids read.
    const noBreaks = new ReadBackWatch(profile);
    noBreaks.observe(exchange('GET', '/breaks', undefined, 200, { items: listedBreaks }));
    noBreaks.observe(exchange('POST', '/users', { first_name: 'A', last_name: 'B', email: 'clockcheck.k3x9.2@example.com', password: 'Valid-pass1' }, 201, { items: { id: 42 } }));
    const quiet = target({ ...all, users: [{ ...stored.users[0], id: 42, first_name: 'A', last_name: 'B', email: 'clockcheck.k3x9.2@example.com', role_id: 3 }] });
    await noBreaks.check(deps(quiet.send));
    expect(quiet.sent.map((r) => r.path)).toEqual(['/users']);
  });

  it('is skipped when the run wrote nothing, and errored when no list could be read', async () => {
    expect(await new ReadBackWatch(profile).check(deps(target(stored).send))).toMatchObject({ status: 'skipped', reason: 'the run wrote no user, timesheet or break it can read back' });
    const refused = async (request: TargetRequest) => exchange('GET', request.path ?? '', undefined, 500, { message: 'down' });
    const result = await watched().check(deps(refused));
    expect(result.status).toBe('errored');
    expect(result.reason).toMatch(/GET \/breaks answered status 500/);
  });
});
