import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.ts';
import type { LoadReport } from '../../src/load/load-report.ts';
import { filesUnder } from '../support/cli.ts';
import { ARTILLERY_FIXTURES } from './support.ts';

const TOKEN = 'sEcReT-artillery-token_7f3a+/=';
const FORMS = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64')];

/** `clockcheck load ...args` in this process (nothing here sends a request), with what it wrote. */
async function load(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  const errors = vi.spyOn(console, 'error').mockImplementation((line) => void err.push(`${String(line)}\n`));
  try {
    const code = await main(['load', ...args]);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    errors.mockRestore();
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-artillery-'));
  vi.stubEnv('CLOCKCHECK_TOKEN', '');
});
afterEach(() => vi.unstubAllEnvs());

describe('clockcheck load --export artillery FILE', () => {
  it('writes the script without a token or a server, and lists on stderr what has no Artillery equivalent', async () => {
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n');
    const file = join(dir, 'load.yml');
    const r = await load(['--export', 'artillery', file, '--target', 'https://staging.example.com', '--ca', ca, '--amount', '100', '--connections', '5', '--ensure', 'p95<=300ms,rps>=50']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    // A target that is not this machine needs no --yes: nothing is sent.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`load: wrote ${file}: an Artillery 2.x script of GET /breaks over 5 connections for 100 requests, as fast as it answers; run it with CLOCKCHECK_TOKEN set: artillery run --output report.json ${file}`);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^load: no Artillery equivalent, not in the script: rps>=50: /)]);
    const script = parse(await readFile(file, 'utf8')) as { config: { target: string; phases: unknown[] } };
    expect(script.config.target).toBe('https://staging.example.com');
    expect(script.config.phases).toEqual([{ duration: 1, arrivalCount: 5 }]);
  });

  it('never writes the token, even when the environment holds it', async () => {
    vi.stubEnv('CLOCKCHECK_TOKEN', TOKEN);
    const file = join(dir, 'load.yml');
    const r = await load(['--export', 'artillery', file, '--target', 'https://127.0.0.1:9', '--amount', '10', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('Authorization: "{{ $env.CLOCKCHECK_TOKEN }}"');
    for (const form of FORMS) expect(text).not.toContain(form);
  });

  it('writes to stdout with FILE -', async () => {
    const r = await load(['--export', 'artillery', '-', '--target', 'https://127.0.0.1:9', '--rate', '20', '--duration', '5s', '--quiet']);
    expect(r.code).toBe(0);
    expect((parse(r.stdout) as { config: { phases: unknown[] } }).config.phases).toEqual([{ duration: 5, arrivalRate: 20, maxVusers: 10 }]);
  });

  it.each([
    [['--export', 'artillery', 'x.yml', '--amount', '10'], /^clockcheck: load --export artillery needs --target \(or a profile with target\): the script runs later, where no embedded reference server is$/m],
    [['--export', 'artillery', '--target', 'https://127.0.0.1:9'], /load: --export artillery needs FILE, the script to write \(- for stdout\)/],
    [['x.yml', '--amount', '10'], /load: ".*x\.yml": a FILE is for --export artillery FILE/],
    [['--export', 'k6', 'x.yml'], /--export/],
    [['--export', 'artillery', 'x.yml', '--target', 'https://127.0.0.1:9'], /an unpaced timed run \(10 s as fast as the target answers\) has no Artillery form/],
    [['--export', 'artillery', 'x.yml', '--target', 'https://127.0.0.1:9', '--amount', '5', '--fault', 'rate-limit-off'], /--fault applies to the embedded reference server, which --export does not start/],
    [['--export', 'artillery', 'x.yml', '--from-artillery', 'r.json'], /--export writes a script and --from-artillery reads a report: give one/],
    [['--export', 'artillery', 'x.yml', '--target', 'http://127.0.0.1:9', '--amount', '5'], /refusing http:\/\/127\.0\.0\.1:9: .*--allow-http/],
  ])('exits 2 for %j with one line saying what to fix', async (args, message) => {
    const r = await load(args.map((a) => (a === 'x.yml' ? join(dir, 'x.yml') : a)));
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(dir, 'x.yml'))).toBe(false);
  });

  it('refuses an endpoint that holds the token, which the script would carry', async () => {
    vi.stubEnv('CLOCKCHECK_TOKEN', TOKEN);
    const r = await load(['--export', 'artillery', join(dir, 'x.yml'), '--target', 'https://127.0.0.1:9', '--amount', '5', '--endpoint', `GET:/breaks?t=${encodeURIComponent(TOKEN)}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--endpoint holds the value of CLOCKCHECK_TOKEN, and the script would carry it/);
    for (const form of FORMS) expect(r.stderr).not.toContain(form);
  });
});

describe('clockcheck load --from-artillery REPORT.json', () => {
  async function loadJson(reportDir: string): Promise<LoadReport> {
    const file = (await filesUnder(reportDir)).find((f) => f.endsWith('load.json'));
    return JSON.parse(await readFile(file as string, 'utf8')) as LoadReport;
  }

  it('writes load.json and load.html from the report and exits 0 when everything judged passed', async () => {
    const reports = join(dir, 'reports');
    const r = await load(['--from-artillery', join(ARTILLERY_FIXTURES, 'limited.report.json'), '--amount', '200', '--connections', '4', '--ensure', 'p99<=2s,limited>=50%', '--report-dir', reports]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Statuses  200 ×50   429 ×150');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('PASSED');
    expect((await filesUnder(reports)).map((f) => f.split('/').pop()).sort()).toEqual(['load.html', 'load.json']);
    const report = await loadJson(reports);
    expect(report).toMatchObject({ source: 'artillery', endpoint: { method: 'GET', path: '/breaks' }, target: { origin: 'unknown' } });
  });

  it('exits 1 when a threshold or a default check fails', async () => {
    const limited = await load(['--from-artillery', join(ARTILLERY_FIXTURES, 'limited.report.json'), '--ensure', 'limited<=10', '--report-dir', join(dir, 'a')]);
    expect(limited.code).toBe(1);
    expect(limited.stdout).toMatch(/✗ limited<=10\s+150 answers 429, 75% of 200 sent; limit <= 10/);
    const refused = await load(['--from-artillery', join(ARTILLERY_FIXTURES, 'refused.report.json'), '--report-dir', join(dir, 'b')]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/✗ Every request answered\s+2 of 2 requests got no answer/);
  });

  it('checks the report\'s endpoint against --endpoint', async () => {
    const r = await load(['--from-artillery', join(ARTILLERY_FIXTURES, 'limited.report.json'), '--endpoint', 'GET:/users', '--report-dir', join(dir, 'r')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/limited\.report\.json holds calls to GET:\/breaks, not to --endpoint GET:\/users/);
  });

  async function malformed(name: string, text: string): Promise<string> {
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  }

  it.each([
    ['not-json.json', '{ "aggregate": ', /is not JSON: /],
    ['array.json', '[]', /is not an Artillery JSON report \(its top level: /],
    ['no-aggregate.json', '{ "intermediate": [] }', /is not an Artillery JSON report \(aggregate: /],
    ['counter-text.json', '{ "aggregate": { "counters": { "http.requests": "ten" }, "firstMetricAt": 1, "lastMetricAt": 2 } }', /is not an Artillery JSON report \(aggregate\.counters\.http\.requests: /],
    ['no-http.json', '{ "aggregate": { "counters": { "vusers.created": 1 }, "firstMetricAt": 1, "lastMetricAt": 2 } }', /is not an Artillery JSON report \(aggregate\.counters: no http\.requests counter: the run made no HTTP call/],
    ['backwards.json', '{ "aggregate": { "counters": { "http.requests": 1 }, "firstMetricAt": 5, "lastMetricAt": 2 } }', /\(aggregate\.lastMetricAt: lastMetricAt is before firstMetricAt\)/],
  ])('exits 2 for %s with one line naming the file and what is wrong', async (name, text, message) => {
    const file = await malformed(name, text);
    const r = await load(['--from-artillery', file, '--report-dir', join(dir, 'r')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`clockcheck: load --from-artillery: ${file} `);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/; give the file `artillery run --output FILE` wrote$/m);
    expect(existsSync(join(dir, 'r'))).toBe(false);
  });

  it('exits 2 for a file that is not there', async () => {
    const r = await load(['--from-artillery', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/load --from-artillery: cannot read .*missing\.json: no such file/);
  });

  it('reads a report with fields it does not know (a later Artillery\'s)', async () => {
    const fixture = JSON.parse(await readFile(join(ARTILLERY_FIXTURES, 'limited.report.json'), 'utf8')) as Record<string, unknown>;
    const file = await malformed('extra.json', JSON.stringify({ ...fixture, metadata: { version: '9.9.9' }, aggregate: { ...(fixture.aggregate as object), gauges: { x: 1 } } }));
    const r = await load(['--from-artillery', file, '--report-dir', join(dir, 'r')]);
    expect(r.code).toBe(0);
  });

  it('redacts a token a request\'s name holds, as load redacts one pasted into the endpoint', async () => {
    vi.stubEnv('CLOCKCHECK_TOKEN', TOKEN);
    const text = (await readFile(join(ARTILLERY_FIXTURES, 'limited.report.json'), 'utf8')).replaceAll('GET:/breaks', `GET:/breaks?t=${encodeURIComponent(TOKEN)}`);
    const reports = join(dir, 'r');
    const r = await load(['--from-artillery', await malformed('named.json', text), '--report-dir', reports]);
    expect(r.code).toBe(0);
    expect((await loadJson(reports)).endpoint.path).toBe('/breaks?t=[REDACTED]');
    for (const form of FORMS) expect(r.stdout).not.toContain(form);
    for (const file of await filesUnder(reports)) for (const form of FORMS) expect(await readFile(file, 'utf8')).not.toContain(form);
  });

  it('reads the committed script\'s report when copied anywhere', async () => {
    const copy = join(dir, 'report.json');
    await copyFile(join(ARTILLERY_FIXTURES, 'refused.report.json'), copy);
    expect((await load(['--from-artillery', copy, '--report-dir', join(dir, 'r')])).code).toBe(1);
  });
});
