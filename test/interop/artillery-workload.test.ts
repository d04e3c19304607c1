import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { WorkloadReport } from '../../src/workload/workload-report.ts';
import { filesUnder, runClockcheck, runProcess } from '../support/cli.ts';
import { writeServerProfile } from '../support/profile-file.ts';
import { tool } from './tools.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { defaultProfile, loadProfile } from '../../src/profile/profile.ts';
import { fixturesContext } from '../../src/properties/profile-context.ts';
import { defaultWorkload } from '../../src/workload/default-workload.ts';
import { FlowBodies } from '../../src/workload/flow-bodies.ts';
import { runWorkload } from '../../src/workload/workload-engine.ts';
import { FakeClock } from '../support/fake-clock.ts';

/**
 * The same mix on Artillery (issue 38): `load --workload default --export artillery` writes the
 * scenarios, weights, flows with their captures and the arrival; Artillery 2.0.21 runs it against the
 * reference server; `--from-artillery` renders its report per operation. Each operation's share of
 * the requests is within 5 percentage points of clockcheck's for the same seed (its engine's mix). Runs only where
 * scripts/install-interop-tools.sh installed Artillery.
 */
const ARTILLERY = tool('artillery');
/**
 * About 25 CPU-seconds (500 virtual users, each its own TLS connection): more than npm test's budget
 * has room for on two cores, so `.ci/run` runs it as a step of its own, with CLOCKCHECK_SLOW_INTEROP=1
 * (CONTRIBUTING.md, "Tests").
 */
const SLOW_INTEROP = process.env.CLOCKCHECK_SLOW_INTEROP === '1';
const TOKEN = 'interop-artillery-workload-token';

let root: string;
let server: ReferenceServer;
let profile: string;

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extra };
}

async function report(dir: string): Promise<WorkloadReport> {
  const file = (await filesUnder(dir)).find((f) => f.endsWith('load.json'))!;
  return JSON.parse(await readFile(file, 'utf8')) as WorkloadReport;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'clockcheck-artillery-workload-'));
  server = await startReferenceServer({ token: TOKEN, rateLimit: null });
  await writeFile(join(root, 'ca.pem'), server.tls.caPem);
  profile = await writeServerProfile(join(root, 'profile.yaml'), server, join(root, 'ca.pem'), { limit: 1_000_000, window: 60_000, bursts: false });
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

/** Each operation's share (%) of the requests of `flows` flows of the default workload, seed 7, as clockcheck's engine sends them. */
async function engineShares(flows: number): Promise<Record<string, number>> {
  const clock = new FakeClock();
  let id = 0;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    const json = request.method === 'POST' ? (request.path === '/breaks' ? { items: { id: ++id } } : { id: ++id }) : { items: [] };
    return { id, startedAt: '', sentAtMs: clock.now(), durationMs: 0, request: { method: request.method, url: `https://t${request.path}`, headers: {} }, response: { status: 200, headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false, json } };
  };
  const base = defaultWorkload();
  const workload = { ...base, arrival: { model: 'open' as const, phases: [{ durationMs: 100_000, rate: flows / 100, rampTo: null }], maxInFlight: 1_000 } };
  const ctx = { ...fixturesContext(await loadProfile(profile), 'cc7'), uniqueTag: 'cc7' };
  const outcome = await clock.run(runWorkload({ workload, clock, send, bodies: new FlowBodies(ctx, 7, 'n'), profile: defaultProfile(), seed: 7, graceMs: 10_000 }));
  const total = outcome.total.figures(1).sent;
  return Object.fromEntries([...outcome.operations].map(([name, stats]) => [name, Math.round((stats.figures(1).sent / total) * 10_000) / 100]));
}

describe.skipIf(ARTILLERY === null || !SLOW_INTEROP)('the default workload on Artillery', () => {
  it('runs the exported script with the same operation mix, rendered per operation by --from-artillery', async () => {
    const script = join(root, 'workload.yml');
    const shape = ['--workload', 'default', '--profile', profile, '--target', server.origin, '--seed', '7'];
    const exported = await runClockcheck(['load', ...shape, '--rate', '50', '--duration', '10s', '--export', 'artillery', script, '--ensure', 'POST /timesheets: p99<=30000', '--quiet'], env({}));
    expect(exported.code, exported.stderr).toBe(0);
    const yaml = await readFile(script, 'utf8');
    expect(yaml).not.toContain(TOKEN);
    expect(yaml).toContain('"{{ $env.CLOCKCHECK_TOKEN }}"');
    expect(yaml).toMatch(/weight: 35/);
    expect(yaml).toMatch(/as: "employee"/);
    const output = join(root, 'report.json');
    const artillery = await runProcess(ARTILLERY!, ['run', '--output', output, script], env({ CLOCKCHECK_TOKEN: TOKEN, ARTILLERY_DISABLE_TELEMETRY: 'true', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }), root);
    expect(artillery.code, artillery.stdout.slice(-2000)).toBe(0);
    const rendered = await runClockcheck(['load', ...shape, '--from-artillery', output, '--ensure', 'POST /timesheets: p99<=30000', '--report-dir', join(root, 'artillery')], env({}));
    expect(rendered.code, rendered.stdout + rendered.stderr).toBe(0);
    expect(rendered.stdout).toMatch(/^Source {4}Artillery's report/m);
    const fromArtillery = await report(join(root, 'artillery'));
    expect(fromArtillery.source).toBe('artillery');
    // Every flow completed: its captures carried the IDs from step to step (a failed capture fails the VU).
    expect(fromArtillery.total.counts.status2xx).toBe(fromArtillery.total.sent);
    // clockcheck's mix for the seed: its engine against a target that answers every request 2xx (a conforming
    // server's: no flow stops), 4000 flows, on a controlled clock; 500 flows of Artillery's random picks are the noise.
    const ours = await engineShares(4000);
    const theirs = Object.fromEntries(fromArtillery.operations.map((o) => [o.operation, o.share]));
    expect(Object.keys(theirs).sort()).toEqual(Object.keys(ours).sort());
    for (const [operation, share] of Object.entries(ours)) expect(Math.abs(share - theirs[operation]!), `${operation}: clockcheck ${share}%, Artillery ${theirs[operation]}%`).toBeLessThanOrEqual(5);
    expect(fromArtillery.verdict.checks.find((c) => c.title === 'POST /timesheets: p99<=30000')?.status).toBe('passed');
  }, 180_000);
});
