import { createHash } from 'node:crypto';
import type { CheckResult, RunReport } from '../../src/report/model.ts';
import { REPORT_SCHEMA_VERSION } from '../../src/report/model.ts';
import { coverageOf } from '../../src/report/coverage.ts';
import { runExitCode } from '../../src/report/run-verdict.ts';
import type { Exchange, ExchangeRequest, ExchangeResponse } from '../../src/client/exchange.ts';

/**
 * A token-shaped secret that must never reach a written report. The sample is built as the
 * outcome would build it (Authorization redacted), and tests put this value in the environment
 * while writing, so a writer that read or re-derived the token would be caught.
 */
export const SAMPLE_SECRET_TOKEN = 'cc_live_7Qm2xVb9Tz4LkP8sWn3RdY6hJ0fGa5Ue';

/** A body the target controls, written to break out of HTML if it were not escaped. */
export const HOSTILE_TITLE = `<script>alert('xss')</script></pre></details><img src=x onerror="alert(1)">`;

export const SAMPLE_BASE_URL = 'https://127.0.0.1:8443';
const API = `${SAMPLE_BASE_URL}/api/public`;
const REDACTED_AUTH = { authorization: '[REDACTED]' };

const RUN_START_MS = Date.UTC(2026, 9, 1, 9, 0, 0);

function exchange(id: number, request: ExchangeRequest, response: ExchangeResponse | undefined, durationMs = 23): Exchange {
  const sentAtMs = RUN_START_MS + id * 250;
  return {
    id,
    startedAt: new Date(sentAtMs).toISOString(),
    sentAtMs,
    durationMs,
    request,
    ...(response ? { response } : {}),
  };
}

function jsonRequest(method: ExchangeRequest['method'], path: string, body: unknown): ExchangeRequest {
  const text = JSON.stringify(body);
  return {
    method,
    url: `${API}${path}`,
    headers: {
      ...REDACTED_AUTH,
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      connection: 'keep-alive',
    },
    body: text,
  };
}

function jsonResponse(status: number, body: unknown): ExchangeResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    body: text,
    bodyBytes: Buffer.byteLength(text),
    bodyTruncated: false,
    json: body,
  };
}

const validSchedule = {
  assigned_by: 1,
  title: 'Morning shift',
  repeat: false,
  all_day: false,
  color: 'blue',
  user_ids: [2, 3],
  start_date: '10/05/2026',
  end_date: '10/05/2026',
  start_time: '09:00',
  end_time: '17:00',
};

function sampleChecks(): CheckResult[] {
  const createdSchedule = exchange(
    1,
    jsonRequest('POST', '/schedules', validSchedule),
    jsonResponse(201, { items: { id: 101, ...validSchedule }, message: 'Schedule created' }),
  );
  const listActive = exchange(
    2,
    { method: 'GET', url: `${API}/users?active=1&page_size=100`, headers: { ...REDACTED_AUTH, accept: 'application/json' } },
    jsonResponse(200, { meta_data: { pagination: { total: 10 } }, items: [{ id: 1, active: true }] }),
  );
  const feb30Payload = { ...validSchedule, title: `O'Brien's "night" shift`, start_date: '02/30/2026', end_date: '02/30/2026' };
  const feb30 = exchange(
    3,
    jsonRequest('POST', '/schedules', feb30Payload),
    jsonResponse(201, { items: { id: 102, ...feb30Payload, title: HOSTILE_TITLE }, message: 'Schedule created' }),
    41,
  );
  const serverErrorBody = `<html><body><script>alert(document.cookie)</script>Internal Server Error \u0007\u001B[31m</body></html>`;
  const offset = exchange(4, jsonRequest('POST', '/timesheets', { user_id: 3, start: '2026-03-08T02:30:00-06:00', clock_in_timezone: 'America/Chicago' }), {
    status: 500,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: serverErrorBody,
    bodyBytes: 96_000,
    bodyTruncated: true,
  });
  const breaksById: Exchange = {
    ...exchange(5, { method: 'GET', url: `${API}/breaks?page=1&page_size=10`, headers: { ...REDACTED_AUTH, 'content-type': 'application/json' }, body: '{"ids":[1,2]}' }, undefined, 30_000),
    error: { code: 'CONNECTION_RESET', message: 'socket hang up (read ECONNRESET)' },
  };
  const getUsers = exchange(
    6,
    { method: 'GET', url: `${API}/users?page=2&sort=-firstName,lastName`, headers: { ...REDACTED_AUTH } },
    jsonResponse(200, { meta_data: { pagination: { current_page: 2 } }, items: [] }),
  );
  const headUsers = exchange(7, { method: 'HEAD', url: `${API}/users?page=2&sort=-firstName,lastName`, headers: { ...REDACTED_AUTH } }, {
    status: 405,
    headers: { allow: 'GET' },
    body: '',
    bodyBytes: 0,
    bodyTruncated: false,
  });

  const replay = (id: string) => `npx clockcheck run --target ${SAMPLE_BASE_URL} --profile fixtures/profile.yaml --only ${id} --seed 20261001`;
  return [
    {
      id: 'schedules/create-minimal',
      title: 'A schedule with only the required fields is created',
      rules: ['ERR-SUCCESS-STATUS', 'SCH-TIMES-UNLESS-ALL-DAY'],
      source: { kind: 'scenario', file: 'suites/schedules.yaml', line: 4 },
      status: 'passed',
      findings: [],
      exchanges: [createdSchedule],
      durationMs: 48,
      replay: replay('schedules/create-minimal'),
    },
    {
      id: 'users/list-filter-active',
      title: 'GET /users?active=1 lists only active users',
      rules: ['USR-LIST-FILTER-ACTIVE'],
      source: { kind: 'builtin', name: 'list-filter-active' },
      status: 'passed',
      findings: [],
      notes: ['first 429 (exchange 9): retry-after: 58 <b>'],
      exchanges: [listActive],
      durationMs: 19,
      replay: replay('users/list-filter-active'),
    },
    {
      id: 'schedules/date-format-rejects-feb-30',
      title: 'A start_date of 02/30/2026 is rejected',
      rules: ['SCH-DATE-FORMAT', 'ERR-VALIDATION-STATUS'],
      source: { kind: 'scenario', file: 'suites/schedules.yaml', line: 42 },
      status: 'failed',
      findings: [
        {
          ruleId: 'SCH-DATE-FORMAT',
          expected: 'a 4xx other than 429: 02/30/2026 is not a calendar date',
          actual: `201 Created; the schedule was stored as id 102 with title ${HOSTILE_TITLE}`,
          exchangeIds: [3],
        },
        { ruleId: 'ERR-VALIDATION-STATUS', expected: 'a 4xx other than 429', actual: '201', exchangeIds: [3] },
      ],
      exchanges: [feb30],
      durationMs: 57,
      replay: replay('schedules/date-format-rejects-feb-30'),
    },
    {
      id: 'timesheets/offset-matches-zone',
      title: 'A start whose offset disagrees with clock_in_timezone is rejected',
      rules: ['TS-OFFSET-MATCHES-TIMEZONE', 'ERR-NO-SERVER-ERROR'],
      source: { kind: 'property', generator: 'timesheetWithWrongOffset', seed: 1_234_567, path: '12:0:3', counterexample: { label: 'start offset -05:00 while America/Chicago is at -06:00', breaks: 'TS-OFFSET-MATCHES-TIMEZONE', exchangeId: 4 } },
      status: 'failed',
      findings: [
        {
          ruleId: 'ERR-NO-SERVER-ERROR',
          expected: 'a 4xx',
          actual: '500 Internal Server Error, body <html><body><script>alert(document.cookie)</script>…',
          exchangeIds: [4],
        },
      ],
      exchanges: [offset],
      durationMs: 1_250,
      replay: replay('timesheets/offset-matches-zone'),
    },
    {
      id: 'breaks/list-by-ids',
      title: 'GET /breaks with ids returns only those breaks',
      rules: ['BRK-IDS-FILTER'],
      source: { kind: 'scenario', file: 'suites/breaks.yaml', line: 17 },
      status: 'errored',
      findings: [],
      reason: 'transport error on exchange #5: CONNECTION_RESET (socket hang up)',
      exchanges: [breaksById],
      durationMs: 30_004,
      replay: replay('breaks/list-by-ids'),
    },
    {
      id: 'webhooks/unsubscribe-removes-subscription',
      title: 'DELETE /webhooks/subscription/unsubscribe removes the subscription',
      rules: ['WH-UNSUBSCRIBE'],
      source: { kind: 'scenario', file: 'suites/webhooks.yaml', line: 3 },
      status: 'skipped',
      findings: [],
      reason: 'read-only run: this check deletes the webhook subscription',
      exchanges: [],
      durationMs: 0,
      replay: replay('webhooks/unsubscribe-removes-subscription'),
    },
    {
      id: 'transport/head-parity-users',
      title: 'HEAD /users answers with the status of GET /users',
      rules: ['HEAD-PARITY', 'HEAD-SUPPORTED'],
      source: { kind: 'builtin', name: 'head-parity' },
      status: 'waived',
      findings: [{ ruleId: 'HEAD-PARITY', expected: 'the status of GET on the same URL: 200', actual: '405', exchangeIds: [6, 7] }],
      waiver: { rule: 'HEAD-PARITY', reason: 'HEAD is answered by the load balancer, not the API (ticket OPS-311)' },
      exchanges: [getUsers, headUsers],
      durationMs: 35,
      replay: replay('transport/head-parity-users'),
    },
  ];
}

/** The URL of the run's webhook sink, where the target POSTs its notifications. */
export const SAMPLE_SINK_URL = 'http://127.0.0.1:9411';

/**
 * A webhook delivery the run's sink received (`direction: inbound`): the target's signed POST of a
 * notification to the sink, and the sink's 200.
 */
export function sampleInboundDelivery(id: number): Exchange {
  const body = JSON.stringify({ payload: { event: 'user_updated', data: { id: 3, operation: 'updated', last_updated_at: 1_790_845_231 } } });
  const receivedAtMs = RUN_START_MS + id * 250;
  return {
    id,
    direction: 'inbound',
    startedAt: new Date(receivedAtMs).toISOString(),
    sentAtMs: receivedAtMs,
    durationMs: 0,
    request: {
      method: 'POST',
      url: `${SAMPLE_SINK_URL}/hook`,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-webhook-timestamp': '1790845231',
        'x-webhook-signature': '5f2b9c0e8d7a6b4c3e1f0a9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a',
      },
      body,
    },
    response: jsonResponse(200, { received: 3 }),
  };
}

/** A failed webhook check whose finding is shown by a delivery the sink received after unsubscribing (exchanges 8 and 9). */
function webhookDeliveryCheck(): CheckResult {
  const unsubscribe = exchange(8, { method: 'DELETE', url: `${API}/webhooks/subscription/unsubscribe`, headers: { ...REDACTED_AUTH } }, jsonResponse(200, { message: 'Unsubscribed' }));
  const id = 'webhooks/notifications-stop';
  return {
    id,
    title: 'No notification is sent after unsubscribe',
    rules: ['WH-NOTIFICATIONS-STOP'],
    source: { kind: 'scenario', file: 'suites/webhooks.yaml', line: 21 },
    status: 'failed',
    findings: [{ ruleId: 'WH-NOTIFICATIONS-STOP', expected: 'no notification after unsubscribe', actual: 'user_updated for user 3 delivered after unsubscribe', exchangeIds: [9] }],
    exchanges: [unsubscribe, sampleInboundDelivery(9)],
    durationMs: 2_260,
    replay: `npx clockcheck run --target ${SAMPLE_BASE_URL} --profile fixtures/profile.yaml --only ${id} --seed 20261001`,
  };
}

/**
 * A realistic report of a run against a faulty target: 2 passed, 2 failed (one with an
 * HTML-hostile JSON body, one with a truncated HTML 500), 1 errored in transport, 1 skipped,
 * 1 waived; coverage of the whole catalog (9 rules judged, most uncovered); two created resources.
 */
export function sampleReport(): RunReport {
  return sampleReportOf(sampleChecks());
}

/** The sample report with one more failed check, `webhooks/notifications-stop`, shown by a webhook delivery the sink received (exchange 9, `direction: inbound`). */
export function sampleReportWithDelivery(): RunReport {
  return sampleReportOf([...sampleChecks(), webhookDeliveryCheck()]);
}

/** A report of these checks as a run would write it: coverage, summary and exit code from the report's own functions. */
export function sampleReportOf(checks: readonly CheckResult[], options: Partial<RunReport['options']> = {}): RunReport {
  const { coverage, summary } = coverageOf(checks);
  const minRules = options.minRules;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: '2026-10-01T09-00-00Z-7f3a',
    tool: { name: 'clockcheck', version: '0.1.0' },
    spec: { title: 'Public API of a time-tracking service', sha256: createHash('sha256').update('time-tracking-public-api.md').digest('hex') },
    target: {
      baseUrl: SAMPLE_BASE_URL,
      apiPrefix: '/api/public',
      tlsFingerprint256: 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89',
      embedded: false,
    },
    profile: { name: 'acme-staging', token_env: 'CLOCKCHECK_TOKEN', company_timezone: 'America/Chicago', expect: { validation_status: 422 } },
    seed: 20_261_001,
    options: { only: [], readOnly: false, suites: ['suites/schedules.yaml', 'suites/breaks.yaml', 'suites/webhooks.yaml'], budget: 200, ...options },
    plannedEtaMs: 95_000,
    startedAt: '2026-10-01T09:00:00.000Z',
    finishedAt: '2026-10-01T09:00:31.470Z',
    durationMs: 31_470,
    requests: { planned: 8, made: 7, unintended429: 0, resent: 0 },
    tokenForm: 'raw',
    notes: [],
    checks,
    coverage,
    createdResources: [
      { kind: 'schedule', id: '101', checkId: 'schedules/create-minimal' },
      { kind: 'schedule', id: '102', checkId: 'schedules/date-format-rejects-feb-30' },
    ],
    summary,
    status: 'complete',
    exitCode: runExitCode({ summary, minRules }),
  };
}
