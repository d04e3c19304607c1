import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ledgerText } from '../../src/report/ledger-text.ts';
import { DEV_BIN, ROOT } from '../support/cli.ts';

/**
 * `clockcheck ...args` with stdout and stderr into one file, as a terminal or a CI log shows them:
 * the lines in the order they were written, whichever stream wrote them.
 */
async function runMerged(args: readonly string[], env: NodeJS.ProcessEnv, file: string): Promise<{ code: number | null; lines: string[] }> {
  const fd = openSync(file, 'w');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [DEV_BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { code, lines: (await readFile(file, 'utf8')).trimEnd().split('\n') };
  } finally {
    closeSync(fd);
  }
}

const TOKEN = 'tok-run-output-9b2e41c7';
let dir: string;
let server: ReferenceServer;
let ca: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-run-output-'));
  server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 60, windowMs: 1000 } });
  ca = join(dir, 'ca.pem');
  await writeFile(ca, server.tls.caPem);
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a run that cannot be made says why in the first line of its output and the last', () => {
  it('an unreachable target', async () => {
    const { code, lines } = await runMerged(['run', '--target', 'https://127.0.0.1:1', '--report-dir', join(dir, 'unreachable')], { ...process.env, CLOCKCHECK_TOKEN: TOKEN, NO_COLOR: '1' }, join(dir, 'unreachable.log'));
    expect(code).toBe(2);
    const cause = 'clockcheck: nothing listens at https://127.0.0.1:1 (connection refused): is the target up, and is the port right?';
    expect(lines[0]).toBe(cause);
    expect(lines.at(-1)).toBe(cause);
    // Between them, the summary with the report paths, then what the run left on the target (nothing).
    const json = lines.findIndex((l) => /^ {2}JSON {3}.*report\.json$/.test(l));
    expect(json).toBeGreaterThan(0);
    expect(lines.at(-2)).toBe('left nothing it created on the target; removed nothing');
    expect(lines.filter((l) => l === cause)).toHaveLength(2);
  }, 60_000);

  it('a token the target refuses in both forms', async () => {
    const { code, lines } = await runMerged(
      ['run', '--target', server.origin, '--ca', ca, '--report-dir', join(dir, 'refused')],
      { ...process.env, CLOCKCHECK_TOKEN: 'tok-not-this-one-000000', NO_COLOR: '1' },
      join(dir, 'refused.log'),
    );
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^clockcheck: the token was refused: GET https:\/\/127\.0\.0\.1:\d+\/api\/public\/users answered 401 .* and 401 to Authorization: Bearer <token>\./);
    expect(lines.at(-1)).toBe(lines[0]);
    expect(lines.findIndex((l) => /^ {2}HTML {3}.*report\.html$/.test(l))).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('tok-not-this-one-000000');
  }, 60_000);
});

describe('a run ends with what it created and removed on the target', () => {
  it('as the last line, from the report it wrote', async () => {
    const reports = join(dir, 'ledger');
    const { code, lines } = await runMerged(
      ['run', '--fault', 'password-special-not-required', '--rate-limit', '60/1s', '--only', 'users/password-classes', '--seed', '3', '--report-dir', reports],
      { ...process.env, NO_COLOR: '1' },
      join(dir, 'ledger.log'),
    );
    expect(code).toBe(1);
    const [runId] = await readdir(reports);
    const report = JSON.parse(await readFile(join(reports, runId!, 'report.json'), 'utf8')) as RunReport;
    const users = report.createdResources.filter((r) => r.kind === 'user').length;
    expect(users).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(ledgerText(report));
    expect(lines.at(-1)).toBe(`created on the target and left there (the spec has no delete): ${users} user${users === 1 ? '' : 's'}; removed nothing`);
  }, 60_000);
});
