import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDelivery, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/spec/webhook-notification.ts';
import { DEV_BIN, ROOT, runClockcheck } from '../support/cli.ts';

const SECRET = 'whsec-cli-secret-7f3a';

describe('clockcheck sink', () => {
  it('prints each delivery with its check, logs it as JSON lines, never prints the secret, and stops on SIGINT', async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'clockcheck-sink-')), 'deliveries.jsonl');
    const child = spawn(process.execPath, [DEV_BIN, 'sink', '--secret-env', 'HOOK_SECRET', '--log', log, '--status', '202'], { cwd: ROOT, env: { ...process.env, HOOK_SECRET: SECRET } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${stdout}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /^listening (\S+)$/m.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const body = JSON.stringify({ payload: { event: 'users', data: { id: 12, operation: 'users_created', last_updated_at: false } } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signDelivery(SECRET, timestamp, body) } });
    expect(answer.status).toBe(202);
    await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect((await fetch(url)).status).toBe(405);
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^#1 \S+ POST \/ users_created id=12; signature verified; answered 202$/m);
    expect(stdout).toMatch(/^#2 .*signature FAILED: no x-webhook-timestamp header/m);
    expect(stdout).toMatch(/^2 deliveries; refused: 1 not a POST$/m);
    const lines = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: number; signature: unknown });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(`${stdout}${await readFile(log, 'utf8')}`).not.toContain(SECRET);
  }, 40_000);

  it('refuses a --secret-env that names no variable, with exit 2', async () => {
    const result = await runClockcheck(['sink', '--secret-env', 'CLOCKCHECK_NO_SUCH_VARIABLE'], { ...process.env, CLOCKCHECK_NO_SUCH_VARIABLE: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/CLOCKCHECK_NO_SUCH_VARIABLE/);
  });
});
