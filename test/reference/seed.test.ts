import { afterAll, describe, expect, it } from 'vitest';
import { SEED_NAMES, type SeedName } from '../../src/reference/seed.ts';
import { startTestServer, type TestServer } from '../support/reference-client.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function company(seed: SeedName): Promise<TestServer> {
  const t = await startTestServer({ seed });
  servers.push(t);
  return t;
}

const total = async (t: TestServer, path: string) => (await t.call('GET', `${path}?page_size=100`)).json.meta_data.pagination.total as number;

describe('the seeds a reference server starts from', () => {
  it('standard: 12 users of every role, 13 timesheets, 36 breaks, a subscription', async () => {
    const t = await company('standard');
    expect(t.server.seed.name).toBe('standard');
    expect([await total(t, '/users'), await total(t, '/timesheets'), await total(t, '/breaks')]).toEqual([12, 13, 36]);
    expect((await t.call('GET', '/webhooks/subscription')).status).toBe(200);
  });

  it('small: a company of 4 users (an admin, a manager, an employee, an inactive employee), 1 timesheet, 3 breaks', async () => {
    const t = await company('small');
    const { seed } = t.server;
    expect([await total(t, '/users'), await total(t, '/timesheets'), await total(t, '/breaks')]).toEqual([4, 1, 3]);
    expect(seed.activeUserIds).toEqual({ admin: 1, manager: 2, employee: 3 });
    expect(seed.inactiveUserId).toBe(4);
    expect(seed.openTimesheetId).toBeNull();
    expect((await t.call('GET', '/webhooks/subscription')).status).toBe(200);
  });

  it('fresh: a company just set up, its admin alone, no timesheet, no break, no subscription; jobs, tasks and break rules there to use', async () => {
    const t = await company('fresh');
    const { seed } = t.server;
    expect([await total(t, '/users'), await total(t, '/timesheets'), await total(t, '/breaks')]).toEqual([1, 0, 0]);
    expect(seed.activeUserIds).toEqual({ admin: 1, manager: null, employee: null });
    expect(seed.inactiveUserId).toBeNull();
    expect(seed.webhookUrl).toBeNull();
    expect((await t.call('GET', '/webhooks/subscription')).status).toBe(404);
    // What the API cannot create is there: a timesheet with the seed's job and task, a break with its rule.
    const sheet = await t.call('POST', '/timesheets', {
      body: { user_id: seed.activeUserIds.admin, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00', job_id: seed.jobIds[0], task_id: seed.taskIds[0] },
    });
    expect(sheet.status, sheet.text).toBe(201);
    const created = await t.call('POST', '/breaks', {
      body: { timesheet_id: sheet.json.items.id, break_rule_id: seed.breakRuleIds[0], start: '2026-10-01T12:00:00-05:00', end: '2026-10-01T12:30:00-05:00' },
    });
    expect(created.status, created.text).toBe(201);
  });

  it('are named in one list', () => {
    expect(SEED_NAMES).toEqual(['standard', 'small', 'fresh']);
  });
});
