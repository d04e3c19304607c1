import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/input/yaml-source.ts';
import { DEFAULT_WORKLOAD_YAML, defaultWorkload } from '../../src/workload/default-workload.ts';
import { parseWorkload, type RequestStep } from '../../src/workload/workload-file.ts';
import { workloadOperationOf } from '../../src/workload/workload-operations.ts';
import { maxWrites, operationsOf, readOnlyWorkload, arrivalWith } from '../../src/workload/workload-plan.ts';

const ARRIVAL = 'arrival: { model: open, phases: [{ duration: 10s, rate: 2 }] }\n';

/** The SourceError a workload text raises, as its message. */
function errorOf(text: string): string {
  try {
    parseWorkload(text, 'w.yaml');
  } catch (error) {
    if (error instanceof SourceError) return error.message;
    throw error;
  }
  throw new Error('parsed');
}

describe('the workload file', () => {
  it('the default workload parses: six weighted scenarios, open model, mostly reads', () => {
    const w = defaultWorkload();
    expect(w.name).toBe('admin-day');
    expect(w.scenarios.map((s) => [s.name, s.weight])).toEqual([
      ['list breaks', 35],
      ['browse users', 20],
      ['timesheets of a year', 15],
      ['clock in with a break', 15],
      ['onboard and correct', 10],
      ['plan a shift', 5],
    ]);
    expect(w.arrival).toEqual({ model: 'open', phases: [{ durationMs: 30_000, rate: 10, rampTo: null }], maxInFlight: 50 });
    expect([...operationsOf(w)].sort()).toEqual(['GET /breaks', 'GET /timesheets', 'GET /users', 'POST /breaks', 'POST /schedules', 'POST /timesheets', 'POST /users', 'PUT /users/{user_id}']);
    // 300 flows, the most writes in a flow 3 (a user, a timesheet, a break).
    expect(maxWrites(w)).toBe(900);
    const clockIn = w.scenarios[3]!.flow as RequestStep[];
    expect(clockIn.map((s) => [s.operation, s.as])).toEqual([
      ['POST /users', 'employee'],
      ['POST /timesheets', 'timesheet'],
      ['POST /breaks', 'lunch'],
      ['GET /breaks', null],
    ]);
    expect(clockIn[1]!.with).toEqual({ user_id: { capture: 'employee' } });
    expect(clockIn[3]!.ids).toEqual([{ capture: 'lunch' }]);
    expect(DEFAULT_WORKLOAD_YAML).toContain('# clockcheck workload');
  });

  it('names operations as the spec writes them, a path parameter as a capture or in braces', () => {
    expect(workloadOperationOf('get /breaks')).toEqual({ name: 'GET /breaks', pathCapture: null });
    expect(workloadOperationOf('PUT /users/{{hire}}')).toEqual({ name: 'PUT /users/{user_id}', pathCapture: 'hire' });
    expect(workloadOperationOf('PUT /users/{user_id}')).toEqual({ name: 'PUT /users/{user_id}', pathCapture: null });
    expect(workloadOperationOf('PUT /schedules/{id}')).toEqual({ name: 'PUT /schedules/{schedule_id}', pathCapture: null });
    expect(workloadOperationOf('DELETE /webhooks/subscription/unsubscribe')).toBeNull();
    expect(workloadOperationOf('GET /users/7')).toBeNull();
  });

  it('gives each break into one timesheet its own slice', () => {
    const w = parseWorkload(
      `name: w\n${ARRIVAL}scenarios:\n  - name: two breaks\n    flow:\n      - op: POST /timesheets\n        as: t\n      - op: POST /breaks\n        with: { timesheet_id: "{{t}}" }\n      - op: POST /breaks\n        with: { timesheet_id: "{{t}}" }\n`,
      'w.yaml',
    );
    expect((w.scenarios[0]!.flow as RequestStep[]).map((s) => s.slice ?? null)).toEqual([null, { index: 0, of: 2 }, { index: 1, of: 2 }]);
  });

  it.each([
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: DELETE /webhooks/subscription/unsubscribe\n`, /^w\.yaml:6: scenarios\[0\]\.flow\[0\]\.op: "DELETE \/webhooks\/subscription\/unsubscribe" is not an operation a workload calls \(one of: GET \/users, POST \/users/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: GET /breaks\n      - op: PUT /users/{{u}}\n`, /^w\.yaml:7: scenarios\[0\]\.flow\[1\]\.op: \{\{u\}\} is not captured before this step \(an earlier step of the flow must create it with `as: u`\)$/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: POST /schedules\n        as: s\n      - op: PUT /users/{{s}}\n`, /^w\.yaml:8: scenarios\[0\]\.flow\[1\]\.op: \{\{s\}\} holds a schedule, and a user goes here$/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: PUT /users/{user_id}\n`, /^w\.yaml:6: .*PUT \/users\/\{user_id\} edits a record the flow created: write its ID as a capture \(e\.g\. PUT \/users\/\{\{user\}\}\)$/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: POST /breaks\n`, /^w\.yaml:6: .*POST \/breaks puts its break inside a timesheet the flow created/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: GET /users\n        as: x\n`, /^w\.yaml:7: scenarios\[0\]\.flow\[0\]\.as: GET \/users creates no record: only a POST captures its record's ID$/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: POST /users\n        query: { page: 2 }\n`, /^w\.yaml:7: .*POST \/users is not a list: it takes no query$/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: GET /users\n        ids: [1]\n`, /^w\.yaml:7: .*only GET \/breaks takes ids/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: GET /users\n  - name: a\n    flow:\n      - op: GET /breaks\n`, /^w\.yaml:7: scenarios\[1\]\.name: "a" names two scenarios/],
    [`name: w\n${ARRIVAL}scenarios:\n  - name: a\n    flow:\n      - op: GET /users\n        qeury: { page: 2 }\n`, /^w\.yaml:7: scenarios\[0\]\.flow\[0\]\.qeury: unknown workload key \(did you mean "query"\?\)$/],
    [`name: w\narrival: { model: open, phases: [{ duration: 200s, rate: 1 }, { duration: 200s, rate: 1 }] }\nscenarios:\n  - name: a\n    flow:\n      - op: GET /users\n`, /^w\.yaml:2: arrival: the phases last 400s together, and a load run lasts 300s at most$/],
    [`name: w\narrival: { model: closed, connections: 300, duration: 10s }\nscenarios:\n  - name: a\n    flow:\n      - op: GET /users\n`, /^w\.yaml:2: arrival\.connections: /],
    [`name: w\n${ARRIVAL}think: 2h\nscenarios:\n  - name: a\n    flow:\n      - op: GET /users\n`, /^w\.yaml:3: think: think must be a duration from 0 to 60s/],
  ])('names a mistake with its line: %#', (text, message) => {
    expect(errorOf(text)).toMatch(message);
  });
});

describe('what the command line does to a workload', () => {
  const w = defaultWorkload();

  it('--read-only keeps the scenarios that only read', () => {
    expect(readOnlyWorkload(w).scenarios.map((s) => s.name)).toEqual(['list breaks', 'browse users', 'timesheets of a year']);
    expect(maxWrites(readOnlyWorkload(w))).toBe(0);
  });

  it('--rate makes an open model at that rate; --connections alone a closed one; --duration alone stretches the arrival', () => {
    expect(arrivalWith(w.arrival, { rate: 40, durationMs: 5_000 })).toEqual({ model: 'open', phases: [{ durationMs: 5_000, rate: 40, rampTo: null }], maxInFlight: 50 });
    expect(arrivalWith(w.arrival, { connections: 8 })).toEqual({ model: 'closed', connections: 8, durationMs: 30_000, maxFlows: 10_000 });
    expect(arrivalWith(w.arrival, { durationMs: 3_000 })).toEqual({ model: 'open', phases: [{ durationMs: 3_000, rate: 10, rampTo: null }], maxInFlight: 50 });
    expect(arrivalWith(w.arrival, {})).toBe(w.arrival);
  });
});
