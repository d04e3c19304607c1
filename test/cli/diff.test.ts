import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runClockcheck } from '../support/cli.ts';

const clockcheck = (...args: string[]) => runClockcheck(args, process.env);

/** The one run directory in `dir`. */
async function runDir(dir: string): Promise<string> {
  const [only] = await readdir(dir);
  return join(dir, only!);
}

/** Two real reports of the embedded server, `--only auth`: clean, and with a fault an auth scenario catches. */
describe('clockcheck diff', () => {
  let clean: string;
  let faulty: string;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'clockcheck-diff-'));
    const [a, b] = [join(work, 'clean'), join(work, 'faulty')];
    const runs = await Promise.all([
      clockcheck('run', '--quiet', '--only', 'auth', '--report-dir', a),
      clockcheck('run', '--quiet', '--only', 'auth', '--fault', 'auth-missing-accepted', '--report-dir', b),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 1]);
    [clean, faulty] = [await runDir(a), await runDir(b)];
  }, 90_000);

  it('exits 1 on a regression and names the new failure with its rule', async () => {
    const result = await clockcheck('diff', clean, join(faulty, 'report.json'));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^NEW FAILURE\s+auth\/\S+\s+passed -> failed\s+AUTH-REQUIRED/m);
    expect(result.stdout).toMatch(/^REGRESSED {2}\d+ new failure/m);
  });

  it('exits 0 the other way round: the failure is fixed', async () => {
    const result = await clockcheck('diff', faulty, clean);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^FIXED\s+auth\/\S+\s+failed -> passed\s+AUTH-REQUIRED/m);
    expect(result.stdout).toMatch(/^NO REGRESSION {2}0 new failure\(s\)/m);
  });

  it('exits 0 when the known failures are all it has: a gate that allows them', async () => {
    const result = await clockcheck('diff', faulty, faulty);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^STILL FAILING\s+auth\//m);
  });

  it('writes markdown for a pull-request comment and JSON for machines', async () => {
    const md = await clockcheck('diff', clean, faulty, '--format', 'markdown');
    expect(md.code).toBe(1);
    expect(md.stdout).toContain('### clockcheck diff: regressed');
    expect(md.stdout).toMatch(/^\| \*\*new failure\*\* \| `auth\//m);
    const json = await clockcheck('diff', clean, faulty, '--format', 'json');
    const parsed = JSON.parse(json.stdout) as { regressed: boolean; checks: { kind: string; rules: string[] }[]; files: { old: string; new: string } };
    expect(parsed.regressed).toBe(true);
    expect(parsed.checks.find((c) => c.kind === 'new failure')?.rules).toContain('AUTH-REQUIRED');
    expect(parsed.files.new).toBe(join(faulty, 'report.json'));
  });

  it('compares a report of schema 1.7.0 with one of today: its coverage recomputed from its checks, and said so', async () => {
    const old = fileURLToPath(new URL('../diff/fixtures/report-1.7.0.json', import.meta.url));
    const result = await clockcheck('diff', old, clean);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^OLD 2026-09-01T08-00-00-000Z-7 \(2026-09-01T08:00:00\.000Z\): 0 failed, 3 errored, 3 not run, 2 of 102 rules judged$/m);
    expect(result.stdout).toContain('is a report of schema 1.7.0: its coverage is recomputed from its checks as 2.0.0 counts it');
    // The old run judged two rules (its summary said 7: errored checks counted); the auth run judges neither of them.
    // The five rules only errored or not-run checks named are not "no longer covered": they never were.
    expect(result.stdout).toMatch(/^Rules no longer covered: HEAD-SUPPORTED, USR-LIST-FILTER-ACTIVE$/m);
  });

  it('refuses what is not two clockcheck reports, with exit 2 and a reason', async () => {
    const notReport = join(work, 'other.json');
    await writeFile(notReport, '{"hello": 1}');
    for (const [args, message] of [
      [[clean], /NEW is missing/],
      [[clean, join(work, 'missing')], /no report at/],
      [[clean, notReport], /is not a clockcheck report\.json/],
      [[clean, faulty, '--format', 'html'], /--format is one of text, json, markdown/],
    ] as const) {
      const result = await clockcheck('diff', ...args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });
});
