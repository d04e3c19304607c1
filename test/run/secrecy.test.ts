import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { filesUnder, ROOT, runClockcheck as runCli } from '../support/cli.ts';

const TOKEN = 'sEcReT-token_4b1d9e7a+/=';
const FORMS = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), JSON.stringify(TOKEN).slice(1, -1)];

describe('the token stays secret through a whole run with failures', () => {
  let server: ReferenceServer;
  let reportDir: string;
  let result: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 600, windowMs: 1000 }, faults: ['break-duration-minutes'] });
    const work = await mkdtemp(join(tmpdir(), 'clockcheck-secrecy-'));
    reportDir = join(work, 'reports');
    const caFile = join(work, 'ca.pem');
    await writeFile(caFile, server.tls.caPem);
    const profile = join(work, 'profile.yaml');
    await writeFile(profile, 'fixtures:\n  active_user_ids: [1, 2, 3]\n  break_rule_id: 1\n');
    result = await runCli(
      ['run', '--target', server.origin, '--ca', caFile, '--profile', profile, '--rate-limit', '600/1s', '--report-dir', reportDir,
        '--suites-dir', join(ROOT, 'test/fixtures/suites/secrecy'), '--seed', '5'],
      { ...process.env, CLOCKCHECK_TOKEN: TOKEN },
    );
  }, 60_000);

  afterAll(async () => {
    await server.close();
  });

  it('runs, finds the injected fault and exits 1', () => {
    expect(result.stderr).not.toMatch(/Error:|at .*\.[jt]s:\d+/);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/BRK-DURATION/);
  });

  it('writes the three reports, and the failure carries a curl command with $CLOCKCHECK_TOKEN', async () => {
    const files = (await filesUnder(reportDir)).map((f) => f.split('/').pop());
    expect(files).toEqual(expect.arrayContaining(['report.json', 'report.html', 'junit.xml']));
    const html = await readFile((await filesUnder(reportDir)).find((f) => f.endsWith('report.html'))!, 'utf8');
    expect(html).toContain('$CLOCKCHECK_TOKEN');
  });

  it.each(FORMS)('never writes the token (as %s) to any report file', async (form) => {
    for (const file of await filesUnder(reportDir)) expect(await readFile(file, 'utf8'), file).not.toContain(form);
  });

  it.each(FORMS)('never prints the token (as %s) on stdout or stderr', (form) => {
    expect(result.stdout).not.toContain(form);
    expect(result.stderr).not.toContain(form);
  });
});

describe('the run command refuses what it cannot certify', () => {
  it('refuses an http:// target with exit 2 and one line saying why', async () => {
    const r = await runCli(['run', '--target', 'http://127.0.0.1:8080'], { ...process.env, CLOCKCHECK_TOKEN: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTPS only/);
  });

  it('asks for CLOCKCHECK_TOKEN instead of taking a token on the command line', async () => {
    const env = { ...process.env };
    delete env.CLOCKCHECK_TOKEN;
    const r = await runCli(['run', '--target', 'https://127.0.0.1:9'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set CLOCKCHECK_TOKEN/);
  });

  it('points at the file and line of a bad profile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-profile-'));
    const file = join(dir, 'p.yaml');
    await writeFile(file, 'target: https://127.0.0.1:9\nrate_limt:\n  limit: 5\n');
    const r = await runCli(['run', '--profile', file], { ...process.env, CLOCKCHECK_TOKEN: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/p\.yaml:2: rate_limt: unknown profile key \(did you mean "rate_limit"\?\)/);
  });

  it('exits 2 with one line when nothing listens at the target (said first and last)', async () => {
    const r = await runCli(['run', '--target', 'https://127.0.0.1:9', '--quiet'], { ...process.env, CLOCKCHECK_TOKEN: 'x' });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
    expect(r.stderr).toMatch(/nothing listens/);
  });
});
