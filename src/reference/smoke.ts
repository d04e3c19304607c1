import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { breakCreateResponse, breakListResponse } from '../spec/responses.ts';
import type { ReferenceServer } from './server.ts';

/** One smoke step: a request and what the reference server must answer. */
interface SmokeStep {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  readonly path: string;
  readonly body?: unknown;
  readonly auth?: boolean;
  readonly expect: number;
  readonly check?: (json: unknown) => string | null;
}

export interface SmokeResult {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

function steps(server: ReferenceServer): SmokeStep[] {
  const seed = server.seed;
  const stamp = Date.now();
  const shape = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }) => (json: unknown) => {
    const parsed = schema.safeParse(json);
    return parsed.success ? null : (parsed.error?.issues[0]?.message ?? 'shape mismatch');
  };
  return [
    { name: 'refuses a request without a token', method: 'GET', path: '/api/public/users', auth: false, expect: 401 },
    { name: 'lists users', method: 'GET', path: '/api/public/users?active=1&sort=firstName', expect: 200 },
    { name: 'answers HEAD without a body', method: 'HEAD', path: '/api/public/users', expect: 200 },
    { name: 'serves the versioned prefix', method: 'GET', path: '/api/v2/users', expect: 200 },
    { name: 'creates a user with defaults', method: 'POST', path: '/api/public/users', expect: 201, body: { first_name: 'Smoke', last_name: 'Test', email: `smoke-${stamp}@clockcheck.test`, password: 'Smoke-1x' } },
    { name: 'edits a user partially', method: 'PUT', path: `/api/public/users/${seed.activeUserIds.employee}`, expect: 200, body: { phone: '555-0100' } },
    { name: 'rejects a password without a special character', method: 'POST', path: '/api/public/users', expect: 422, body: { first_name: 'S', last_name: 'T', email: `bad-${stamp}@clockcheck.test`, password: 'Smoke1x' } },
    { name: 'creates a schedule', method: 'POST', path: '/api/public/schedules', expect: 201, body: { assigned_by: seed.activeUserIds.admin, title: 'Smoke', repeat: false, all_day: true, color: 'blue', user_ids: [seed.activeUserIds.employee], start_date: '12/01/2026', end_date: '12/01/2026' } },
    { name: 'updates the schedule', method: 'PUT', path: '/api/public/schedules/1', expect: 200, body: { event_pid: 'smoke', title: 'Smoke 2' } },
    { name: 'creates a timesheet', method: 'POST', path: '/api/public/timesheets', expect: 201, body: { user_id: seed.activeUserIds.employee, start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T17:00:00-06:00' } },
    { name: 'rejects a DST-wrong offset', method: 'POST', path: '/api/public/timesheets', expect: 422, body: { user_id: seed.activeUserIds.employee, start: '2026-07-01T09:00:00-06:00' } },
    { name: 'creates a break inside its timesheet', method: 'POST', path: '/api/public/breaks', expect: 201, check: shape(breakCreateResponse), body: { timesheet_id: seed.timesheetIds[0], break_rule_id: seed.breakRuleIds[0], start: '2026-10-01T13:00:00-05:00', end: '2026-10-01T13:20:00-05:00' } },
    { name: 'lists breaks by ids', method: 'GET', path: '/api/public/breaks', expect: 200, check: shape(breakListResponse), body: { ids: [1, 2] } },
    { name: 'filters timesheets by date_range', method: 'GET', path: '/api/public/timesheets?date_range=2026-10-01,2026-10-03', expect: 200 },
    { name: 'removes the webhook subscription', method: 'DELETE', path: '/api/public/webhooks/subscription/unsubscribe', expect: 200 },
  ];
}

/** Plain HTTP to the HTTPS port must not yield API data (§1). */
function plainHttpAnswer(port: number): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/public/users HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
  });
}

/** Exercises every operation of the reference server once; a quick proof that it is up and behaving. */
export async function smokeCheck(server: ReferenceServer): Promise<SmokeResult[]> {
  const agent = new Agent({ connect: { ca: server.tls.caPem } });
  const results: SmokeResult[] = [];
  try {
    for (const step of steps(server)) {
      const response = await request(`${server.origin}${step.path}`, {
        method: step.method,
        dispatcher: agent,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...(step.auth === false ? {} : { authorization: server.token }) },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const text = await response.body.text();
      let problem = response.statusCode === step.expect ? null : `status ${response.statusCode}, expected ${step.expect}`;
      if (!problem && step.method === 'HEAD' && text.length > 0) problem = 'HEAD answered with a body';
      if (!problem && step.check) problem = step.check(JSON.parse(text));
      results.push({ name: step.name, passed: problem === null, detail: problem ?? `${step.method} ${step.path} → ${response.statusCode}` });
    }
    const plain = await plainHttpAnswer(server.port);
    const leaked = plain.includes('"items"') || plain.includes('meta_data');
    results.push({ name: 'serves no API data over plain HTTP', passed: !leaked, detail: leaked ? 'plain HTTP returned API data' : `answer: ${plain.split('\r\n')[0] || '(connection closed)'}` });
  } finally {
    await agent.close();
  }
  return results;
}
