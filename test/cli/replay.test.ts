import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayBase, shellWord, type ReplayOptions } from '../../src/cli/replay.ts';
import type { CheckResult, RunReport } from '../../src/report/model.ts';
import { DEV_BIN, ROOT, runProcess } from '../support/cli.ts';

const exec = promisify(execFile);

const EMBEDDED: ReplayOptions = { target: null, profile: undefined, rateLimit: undefined, ca: undefined, insecure: false, allowHttp: false, suite: undefined, suitesDir: undefined, readOnly: false, faults: [] };

/** The words a POSIX shell makes of `command`, as it would pass them to a program. */
async function shellWords(command: string): Promise<string[]> {
  const { stdout } = await exec('sh', ['-c', `set -- ${command}; printf '%s\\0' "$@"`]);
  return stdout.split('\0').slice(0, -1);
}

describe('replayBase', () => {
  it('is `clockcheck run` alone for a default run of the embedded server', () => {
    expect(replayBase(EMBEDDED)).toBe('clockcheck run');
  });

  it('carries every option that decides what a check sends and how it is judged, in a fixed order', () => {
    const all: ReplayOptions = {
      target: 'https://api.example.com:8443',
      profile: 'profiles/acme.yaml',
      rateLimit: { limit: 60, windowMs: 1000 },
      ca: 'certs/ca.pem',
      insecure: true,
      allowHttp: true,
      suite: 'users.yaml',
      suitesDir: 'my-suites',
      readOnly: true,
      faults: ['password-min-5', 'head-unsupported'],
    };
    expect(replayBase(all)).toBe(
      'clockcheck run --target https://api.example.com:8443 --profile profiles/acme.yaml --rate-limit 60/1s --ca certs/ca.pem --insecure --allow-http ' +
        '--suites-dir my-suites --suite users.yaml --read-only --fault password-min-5 --fault head-unsupported',
    );
  });

  it('quotes a word a shell would split or expand, and the shell reads it back as it was', async () => {
    const awkward = ["/tmp/it's here/p.yaml", '**/*.yaml', 'a b', '$HOME', 'x;rm -rf y', '`id`', 'tab\there', ''];
    const command = replayBase({ ...EMBEDDED, profile: awkward[0], suite: awkward[1], suitesDir: awkward[2], ca: awkward[3], faults: awkward.slice(4) });
    const words = await shellWords(command);
    expect(words).toEqual(['clockcheck', 'run', '--profile', awkward[0], '--ca', awkward[3], '--suites-dir', awkward[2], '--suite', awkward[1], ...awkward.slice(4).flatMap((f) => ['--fault', f])]);
    expect(shellWord('properties/user-password')).toBe('properties/user-password');
    expect(shellWord('60/1s')).toBe('60/1s');
  });
});

/**
 * A real run of the embedded server with a fault, and each failed check's replay command, run as
 * printed (split by a POSIX shell, `clockcheck` being the development CLI) in a directory of its
 * own: it runs that check alone, with the same verdict and the same findings.
 */
describe('a replay command printed by a run', () => {
  const TOKEN = 'cc-replay-token-never-printed-5d1e';
  let dir: string;
  let suitesDir: string;
  let report: RunReport;

  const readReport = async (reportDir: string): Promise<RunReport> => {
    const [runId] = await readdir(reportDir);
    return JSON.parse(await readFile(join(reportDir, runId!, 'report.json'), 'utf8')) as RunReport;
  };
  const env = { ...process.env, CLOCKCHECK_TOKEN: TOKEN, NO_COLOR: '1' };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-replay-'));
    // A suites directory whose name a shell would split and unquote: the replay must quote it.
    suitesDir = join(dir, "it's suites");
    await mkdir(suitesDir);
    await copyFile(join(ROOT, 'suites/users.yaml'), join(suitesDir, 'users.yaml'));
    const args = ['run', '--fault', 'password-special-not-required', '--rate-limit', '60/1s', '--suites-dir', suitesDir, '--suite', 'users.yaml'];
    const first = await runProcess(process.execPath, [DEV_BIN, ...args, '--only', 'users/password-classes,properties/user-password', '--budget', '20', '--seed', '7', '--quiet', '--report-dir', join(dir, 'first')], env);
    expect(first.code, first.stderr).toBe(1);
    report = await readReport(join(dir, 'first'));
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('carries the fault, the rate limit, the suites, the seed and, for generated cases, the budget and path; never the token', () => {
    const failed = report.checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.id).sort()).toEqual(['properties/user-password', 'users/password-classes']);
    const base = `clockcheck run --rate-limit 60/1s --suites-dir '${dir}/it'\\''s suites' --suite users.yaml --fault password-special-not-required`;
    const byId = (id: string) => failed.find((c) => c.id === id)!;
    expect(byId('users/password-classes').replay).toBe(`${base} --only users/password-classes --seed 7`);
    expect(byId('properties/user-password').replay).toMatch(new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --budget 20 --only properties/user-password --seed 7 --path [0-9:]+$`));
    for (const check of report.checks) expect(check.replay).not.toContain(TOKEN);
  });

  it.each(['users/password-classes', 'properties/user-password'])('%s: run as printed, it runs that check alone to the same verdict and findings', async (id) => {
    const check = report.checks.find((c) => c.id === id) as CheckResult;
    const [command, ...args] = await shellWords(check.replay);
    expect(command).toBe('clockcheck');
    const cwd = await mkdtemp(join(dir, 'replay-'));
    const replayed = await runProcess(process.execPath, [DEV_BIN, ...args], env, cwd);
    expect(replayed.code, replayed.stderr).toBe(1);
    const again = await readReport(join(cwd, 'reports'));
    expect(again.checks.filter((c) => c.status !== 'skipped').map((c) => c.id)).toEqual([id]);
    const same = again.checks.find((c) => c.id === id) as CheckResult;
    expect(same.status).toBe('failed');
    expect(same.findings.map((f) => [f.ruleId, f.expected, f.actual])).toEqual(check.findings.map((f) => [f.ruleId, f.expected, f.actual]));
    expect(same.replay).toBe(check.replay);
    // The same scenario line, or the same family, seed, path and smallest counterexample (a scenario's file is named from the working directory).
    // Exchange IDs are the run's numbering, so a check run alone names other ones.
    const where = (c: CheckResult, from: string) => {
      if (c.source.kind === 'scenario') return { ...c.source, file: resolve(from, c.source.file) };
      if (c.source.kind !== 'property') return c.source;
      const { baselineExchangeId: _b, setupExchangeId: _s, counterexample, ...rest } = c.source;
      return { ...rest, counterexample: counterexample && { label: counterexample.label, breaks: counterexample.breaks } };
    };
    expect(where(same, cwd)).toEqual(where(check, ROOT));
  }, 120_000);
});
