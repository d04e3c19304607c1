import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { WorkloadReport } from '../../src/workload/workload-report.ts';
import { filesUnder } from '../support/cli.ts';

/**
 * `clockcheck load --workload` in-process (the process boundary is not what these test): against the
 * embedded reference server at a raised limit, and against a started one as an external target.
 */
interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `clockcheck load ...args` in this process, capturing what it writes. */
async function load(args: string[], env: Record<string, string> = {}): Promise<Output> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const log = vi.spyOn(console, 'error').mockImplementation((...parts) => void (stderr += `${parts.join(' ')}\n`));
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return { code: await main(['load', ...args]), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    log.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

async function reportIn(dir: string): Promise<{ report: WorkloadReport; html: string }> {
  const files = await filesUnder(dir);
  const json = files.find((f) => f.endsWith('load.json'))!;
  const html = files.find((f) => f.endsWith('load.html'))!;
  return { report: JSON.parse(await readFile(json, 'utf8')) as WorkloadReport, html: await readFile(html, 'utf8') };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-workload-'));
});

describe('the default workload against the embedded reference server', () => {
  let run: Output;
  let report: WorkloadReport;
  let html: string;

  beforeAll(async () => {
    const reports = join(dir, 'default');
    run = await load(['--workload', 'default', '--rate', '20', '--duration', '2s', '--seed', '11', '--quiet', '--report-dir', reports]);
    ({ report, html } = await reportIn(reports));
  }, 60_000);

  it('passes, with results for every operation it used, and their shares', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(report.kind).toBe('workload');
    expect(report.workload).toMatchObject({ name: 'admin-day', seed: 11, readOnly: false, arrival: { model: 'open', phases: [{ durationMs: 2000, rate: 20, rampTo: null }] } });
    expect(report.arrivals).toEqual({ scheduled: 40, started: 40, dropped: 0 });
    const used = new Set(report.operations.map((o) => o.operation));
    expect(used.has('GET /breaks') && used.has('POST /users')).toBe(true);
    for (const o of report.operations) {
      expect(o.sent, o.operation).toBeGreaterThan(0);
      expect(o.counts.status2xx, o.operation).toBe(o.sent);
      expect(o.latencyServedMs?.count, o.operation).toBe(o.sent);
      expect(o.perSecond.length, o.operation).toBeGreaterThan(0);
    }
    expect(report.operations.reduce((n, o) => n + o.sent, 0)).toBe(report.total.sent);
    expect(Math.round(report.operations.reduce((n, o) => n + o.share, 0))).toBe(100);
    expect(report.scenarios.every((s) => s.completed === s.started && s.stopped.length === 0)).toBe(true);
    expect(report.verdict.status).toBe('passed');
    expect(report.verdict.checks.filter((c) => c.id === 'no-5xx').map((c) => c.operation).sort()).toEqual([...used].sort());
  });

  it('prints a table per operation, the flows, what it wrote, and PASSED last', () => {
    expect(run.stdout).toMatch(/^operation\s+share\s+sent\s+2xx\s+4xx\s+429\s+5xx\s+errors\s+p50\s+p99\s+max\s+req\/s$/m);
    expect(run.stdout).toMatch(/^GET \/breaks\s+[\d.]+%\s+\d+/m);
    expect(run.stdout).toMatch(/^total\s+100%\s+\d+/m);
    expect(run.stdout).toMatch(/^Arrivals {2}40 scheduled {2}40 started {2}0 dropped$/m);
    expect(run.stdout).toMatch(/^Written {3}created \d+ users?/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('PASSED');
  });

  it('writes load.html with a section and two charts per operation', () => {
    for (const o of report.operations) {
      expect(html).toContain(`data-testid="operation" data-operation="${o.operation}"`);
      expect(html).toContain(`data-testid="latency-per-second" data-operation="${o.operation}"`);
    }
    expect(html).toContain('data-testid="verdict">PASSED<');
  });
});

describe('--ensure per operation', () => {
  it('fails the run on a threshold an operation breaks, and passes on one it meets; the overall default checks stay', async () => {
    const reports = join(dir, 'ensure');
    const r = await load(['--workload', 'default', '--rate', '10', '--duration', '1s', '--seed', '2', '--quiet', '--report-dir', reports, '--ensure', 'GET /breaks: p99<=0.001ms', '--ensure', 'GET /breaks: errors<=0', '--ensure', 'p99<=30s']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/✗ GET \/breaks: p99<=0\.001ms\s+p99 [\d.]+ ms over \d+ served calls; limit <= 0\.001 ms/);
    expect(r.stdout).toMatch(/✓ GET \/breaks: errors<=0\s+0 transport errors and timeouts/);
    expect(r.stdout).toMatch(/✓ p99<=30s\s+p99/);
    const { report } = await reportIn(reports);
    expect(report.verdict.checks.find((c) => c.title === 'GET /breaks: p99<=0.001ms')).toMatchObject({ operation: 'GET /breaks', status: 'failed' });
    // errors<=0 on GET /breaks takes the place of its all-answered default; the other operations keep theirs.
    expect(report.verdict.checks.filter((c) => c.id === 'all-answered' && c.operation === 'GET /breaks')).toEqual([]);
    expect(report.verdict.checks.some((c) => c.id === 'all-answered' && c.operation === 'GET /users')).toBe(true);
  }, 60_000);

  it.each([
    [['--ensure', 'DELETE /webhooks/subscription/unsubscribe: p99<1s'], /"DELETE \/webhooks\/subscription\/unsubscribe" is not an operation a workload calls/],
    [['--ensure', 'PUT /schedules/{id}: p99<1s'], /the workload never calls PUT \/schedules\/\{schedule_id\}, so there is nothing to judge/],
    [['--ensure', 'POST /users: p99<<1s'], /--ensure "p99<<1s"/],
    [['--endpoint', 'GET:/users'], /--endpoint does not go with --workload/],
    [['--read-only', '--endpoint', 'GET:/users'], /--endpoint does not go with --workload/],
  ])('names a mistake in one line, exit 2, before anything is sent: %j', async (args, message) => {
    const r = await load(['--workload', 'default', '--quiet', '--report-dir', join(dir, 'never'), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('--read-only and --seed go with --workload only', async () => {
    const r = await load(['--read-only']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--read-only goes with --workload/);
  });
});

describe('safety and the data a workload needs', () => {
  let server: ReferenceServer;
  let ca: string;
  beforeAll(async () => {
    server = await startReferenceServer({ token: 'workload-token-3f9a', rateLimit: null });
    ca = join(dir, 'ca.pem');
    await writeFile(ca, server.tls.caPem);
  });
  afterAll(() => server?.close());

  it('refuses a target that is not loopback without --yes, saying how many records it would create at most', async () => {
    const r = await load(['--workload', 'default', '--target', 'https://api.example.com'], { CLOCKCHECK_TOKEN: 'x-token' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to load api\.example\.com without --yes: .*workload admin-day, open model: 10 flows\/s for 30 s \(at most 50 in flight\), creating or editing at most 900 records \(permanent: this API deletes no user, timesheet or break\); add --yes to confirm \(or --read-only to send only reads\)/);
  });

  it('with --read-only says it sends reads only', async () => {
    const r = await load(['--workload', 'default', '--read-only', '--target', 'https://api.example.com'], { CLOCKCHECK_TOKEN: 'x-token' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/this would send the workload admin-day, open model: .*, reads only; add --yes to confirm$/m);
  });

  it('names the fixture a flow needs when the profile has none, before it sends anything', async () => {
    const profile = join(dir, 'bare-profile.yaml');
    await writeFile(profile, `target: ${server.origin}\ntls: { ca: ${ca} }\n`);
    const r = await load(['--workload', 'default', '--profile', profile], { CLOCKCHECK_TOKEN: server.token });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/POST \/breaks in "clock in with a break" needs fixtures\.break_rule_id in the profile; `clockcheck init` discovers it \(or give the field with `with:`\)$/m);
    expect(r.stdout).toBe('');
  });

  it('runs only the reading scenarios under --read-only against an external target: nothing written', async () => {
    const profile = join(dir, 'read-profile.yaml');
    await writeFile(profile, `target: ${server.origin}\ntls: { ca: ${ca} }\n`);
    const reports = join(dir, 'read-only');
    const r = await load(['--workload', 'default', '--read-only', '--profile', profile, '--rate', '10', '--duration', '1s', '--quiet', '--report-dir', reports], { CLOCKCHECK_TOKEN: server.token });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const { report } = await reportIn(reports);
    expect(report.workload.readOnly).toBe(true);
    expect(report.operations.every((o) => o.operation.startsWith('GET '))).toBe(true);
    expect(report.written).toEqual({ created: {}, edited: {}, notKept: 0 });
    expect(r.stdout).not.toContain(server.token);
  }, 60_000);

  it('a workload file with a mistake is exit 2, one line with its place', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'name: w\narrival: { model: open, phases: [{ duration: 1s, rate: 1 }] }\nscenarios:\n  - name: a\n    flow:\n      - op: PUT /users/{{nobody}}\n');
    const r = await load(['--workload', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe(`clockcheck: ${file}:6: scenarios[0].flow[0].op: {{nobody}} is not captured before this step (an earlier step of the flow must create it with \`as: nobody\`)`);
  });
});
