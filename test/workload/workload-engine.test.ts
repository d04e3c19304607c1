import { describe, expect, it } from 'vitest';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { parseOffsetDateTime } from '../../src/contract/formats/index.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import { FlowBodies } from '../../src/workload/flow-bodies.ts';
import { runWorkload, type WorkloadOutcome } from '../../src/workload/workload-engine.ts';
import { parseWorkload, type Workload } from '../../src/workload/workload-file.ts';
import { FakeClock } from '../support/fake-clock.ts';

/**
 * The engine on a controlled clock (issue 36's way): a fake target answers each request after a set
 * time on the clock, so arrivals, drops, the closed model's loop, captures and the grace are exact.
 */
const CTX = { companyTimezone: 'America/Chicago', activeUserIds: [1], breakRuleId: 3, uniqueTag: 'cctest' };

interface Sent {
  readonly at: number;
  readonly request: TargetRequest;
}

/** A target that answers after `latencyMs(request)` on `clock`: creates get IDs from 100 up (a break's in `items`), `status(request)` decides the status. */
function fakeTarget(clock: FakeClock, latencyMs: (r: TargetRequest) => number, status: (r: TargetRequest) => number = () => 200) {
  const sent: Sent[] = [];
  let next = 100;
  let exchangeId = 0;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const at = clock.now();
    sent.push({ at, request });
    await clock.sleep(latencyMs(request));
    const code = status(request);
    const id = next++;
    const json = request.method === 'POST' ? (request.path === '/breaks' ? { items: { id }, message: 'added' } : { id }) : { items: [] };
    return {
      id: ++exchangeId,
      startedAt: new Date(at).toISOString(),
      sentAtMs: at,
      durationMs: clock.now() - at,
      request: { method: request.method, url: `https://t${request.path}`, headers: {} },
      response: { status: code, headers: {}, body: JSON.stringify(json), bodyBytes: 10, bodyTruncated: false, json },
    };
  };
  return { send, sent };
}

function workload(yaml: string): Workload {
  return parseWorkload(yaml, 'w.yaml');
}

async function run(clock: FakeClock, w: Workload, send: (r: TargetRequest) => Promise<Exchange>, graceMs = 10_000): Promise<WorkloadOutcome> {
  return clock.run(runWorkload({ workload: w, clock, send, bodies: new FlowBodies(CTX, 1, 'n0nce'), profile: defaultProfile(), seed: 1, graceMs }));
}

const ONE_GET = `scenarios:\n  - name: read\n    flow:\n      - op: GET /breaks\n`;

describe('the open model', () => {
  it('starts flows on the schedule, whatever the target takes: 4 flows/s for 1 s, sent at 0, 250, 500, 750 ms', async () => {
    const clock = new FakeClock(10_000);
    const target = fakeTarget(clock, () => 100);
    const outcome = await run(clock, workload(`name: w\narrival: { model: open, phases: [{ duration: 1s, rate: 4 }] }\n${ONE_GET}`), target.send);
    expect(target.sent.map((s) => s.at - 10_000)).toEqual([0, 250, 500, 750]);
    expect(outcome.arrivals).toEqual({ scheduled: 4, started: 4, dropped: 0 });
    expect(outcome.endMs - outcome.startMs).toBe(850);
    const figures = outcome.operations.get('GET /breaks')!.figures(1000);
    expect(figures.sent).toBe(4);
    expect(figures.counts.status2xx).toBe(4);
    expect(figures.latencyServedMs).toMatchObject({ count: 4, p50: 100, p99: 100, max: 100 });
  });

  it('drops an arrival when max_in_flight flows are in flight, and does not delay the next: a slow target shows, never hides', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 600);
    const outcome = await run(clock, workload(`name: w\narrival: { model: open, phases: [{ duration: 1s, rate: 4 }], max_in_flight: 2 }\n${ONE_GET}`), target.send);
    // 0 and 250 in flight at 500: dropped; the first ends at 600, so 750 goes.
    expect(target.sent.map((s) => s.at)).toEqual([0, 250, 750]);
    expect(outcome.arrivals).toEqual({ scheduled: 4, started: 3, dropped: 1 });
  });
});

describe('the closed model', () => {
  it('starts each connection\'s next flow when its last one ends, until the time is up', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 300);
    const outcome = await run(clock, workload(`name: w\narrival: { model: closed, connections: 1, duration: 1s }\n${ONE_GET}`), target.send);
    expect(target.sent.map((s) => s.at)).toEqual([0, 300, 600, 900]);
    expect(outcome.arrivals).toEqual({ scheduled: 4, started: 4, dropped: 0 });
  });

  it('starts no more flows than max_flows', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 10);
    const outcome = await run(clock, workload(`name: w\narrival: { model: closed, connections: 3, duration: 5s, max_flows: 7 }\n${ONE_GET}`), target.send);
    expect(target.sent).toHaveLength(7);
    expect(outcome.arrivals.started).toBe(7);
  });
});

describe('flows', () => {
  const CLOCK_IN = `name: w\narrival: { model: open, phases: [{ duration: 1s, rate: 1 }] }\nscenarios:\n  - name: clock in\n    flow:\n      - op: POST /users\n        as: u\n      - op: POST /timesheets\n        with: { user_id: "{{u}}" }\n        as: t\n      - op: POST /breaks\n        with: { timesheet_id: "{{t}}" }\n        as: b\n      - op: GET /breaks\n        ids: ["{{b}}"]\n      - op: PUT /users/{{u}}\n`;

  it('carries what a step created into the steps after it: the user into the timesheet, the timesheet into a break inside it, the break into the ids read, the user into the edit path', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 5);
    const outcome = await run(clock, workload(CLOCK_IN), target.send);
    const [user, timesheet, brk, read, edit] = target.sent.map((s) => s.request);
    expect(user).toMatchObject({ method: 'POST', path: '/users' });
    expect((user!.json as { email: string }).email).toBe('clockcheck.n0nce.w1@example.com');
    expect(timesheet).toMatchObject({ method: 'POST', path: '/timesheets', json: { user_id: 100 } });
    const sheet = timesheet!.json as { start: string; end: string };
    const b = brk!.json as { timesheet_id: number; break_rule_id: number; start: string; end: string };
    expect(b).toMatchObject({ timesheet_id: 101, break_rule_id: 3 });
    const ms = (t: string) => parseOffsetDateTime(t)!.dateTime.toMillis();
    expect(ms(b.start)).toBeGreaterThanOrEqual(ms(sheet.start));
    expect(ms(b.end)).toBeLessThanOrEqual(ms(sheet.end));
    expect(read).toEqual({ method: 'GET', path: '/breaks', json: { ids: [102] } });
    expect(edit).toMatchObject({ method: 'PUT', path: '/users/100' });
    expect((edit!.json as { email: string }).email).toBe('clockcheck.n0nce.w2@example.com');
    expect(outcome.scenarios[0]).toMatchObject({ started: 1, completed: 1, cutAtEnd: 0 });
    expect(outcome.written.map((w) => [w.operation, w.kind, w.id])).toEqual([
      ['POST /users', 'user', 100],
      ['POST /timesheets', 'timesheet', 101],
      ['POST /breaks', 'break', 102],
      ['PUT /users/{user_id}', 'user', 100],
    ]);
  });

  it('stops a flow at its first answer that is not 2xx, and counts why', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 5, (r) => (r.path === '/timesheets' ? 422 : 201));
    const outcome = await run(clock, workload(CLOCK_IN), target.send);
    expect(target.sent.map((s) => s.request.path)).toEqual(['/users', '/timesheets']);
    expect(outcome.scenarios[0]!.completed).toBe(0);
    expect([...outcome.scenarios[0]!.stopped]).toEqual([['POST /timesheets answered 422', 1]]);
    expect(outcome.written.map((w) => w.operation)).toEqual(['POST /users']);
  });

  it('stops a flow whose create answers 2xx with no ID to carry on, saying so', async () => {
    const clock = new FakeClock();
    const sent: TargetRequest[] = [];
    const send = async (request: TargetRequest): Promise<Exchange> => {
      sent.push(request);
      return { id: 1, startedAt: '', sentAtMs: clock.now(), durationMs: 1, request: { method: request.method, url: 'https://t', headers: {} }, response: { status: 201, headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false, json: {} } };
    };
    const outcome = await run(clock, workload(CLOCK_IN), send);
    expect(sent).toHaveLength(1);
    expect([...outcome.scenarios[0]!.stopped]).toEqual([['POST /users answered 2xx: its answer names no ID', 1]]);
  });

  it('gives flows in flight the grace after the arrivals, then cuts the steps not yet sent', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 5);
    const w = workload(`name: w\narrival: { model: open, phases: [{ duration: 1s, rate: 1 }] }\nscenarios:\n  - name: slow\n    flow:\n      - op: GET /users\n      - think: 30s\n      - op: GET /breaks\n`);
    const outcome = await run(clock, w, target.send, 2_000);
    expect(target.sent.map((s) => s.request.path)).toEqual(['/users']);
    expect(outcome.scenarios[0]).toMatchObject({ started: 1, completed: 0, cutAtEnd: 1 });
    expect(clock.now()).toBe(3_000);
  });

  it('waits the workload think time between requests, not before a think step', async () => {
    const clock = new FakeClock();
    const target = fakeTarget(clock, () => 0);
    const w = workload(`name: w\nthink: 100ms\narrival: { model: open, phases: [{ duration: 1s, rate: 1 }] }\nscenarios:\n  - name: s\n    flow:\n      - op: GET /users\n      - op: GET /users\n      - think: 1s\n      - op: GET /breaks\n`);
    await run(clock, w, target.send);
    expect(target.sent.map((s) => s.at)).toEqual([0, 100, 1100]);
  });

  it('sixteen virtual users thinking at once raise no MaxListenersExceededWarning (each sleep waits on the run\'s one stop signal)', async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', listen);
    try {
      const clock = new FakeClock();
      const target = fakeTarget(clock, () => 10);
      const w = workload(`name: w\nthink: 500ms\narrival: { model: closed, connections: 16, duration: 2s }\nscenarios:\n  - name: s\n    flow:\n      - op: GET /users\n      - op: GET /breaks\n`);
      const outcome = await run(clock, w, target.send);
      expect(outcome.scenarios[0]!.started).toBeGreaterThanOrEqual(16);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('picks scenarios by weight with the seed: the same seed, the same sequence', async () => {
    const yaml = `name: w\narrival: { model: open, phases: [{ duration: 10s, rate: 20 }] }\nscenarios:\n  - name: a\n    weight: 3\n    flow:\n      - op: GET /users\n  - name: b\n    weight: 1\n    flow:\n      - op: GET /breaks\n`;
    const paths = async () => {
      const clock = new FakeClock();
      const target = fakeTarget(clock, () => 1);
      await run(clock, workload(yaml), target.send);
      return target.sent.map((s) => s.request.path);
    };
    const first = await paths();
    expect(await paths()).toEqual(first);
    const share = first.filter((p) => p === '/users').length / first.length;
    expect(share).toBeGreaterThan(0.65);
    expect(share).toBeLessThan(0.85);
  });
});
