import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signDelivery } from '../support/webhooks.ts';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/contract/webhook-notification.ts';
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
    expect(stdout).toMatch(/^2 deliveries \(1 signature FAILED\); refused: 1 not a POST$/m);
    const lines = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: number; signature: unknown });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(`${stdout}${await readFile(log, 'utf8')}`).not.toContain(SECRET);
  }, 40_000);

  it('refuses a --secret-env that names no variable, with exit 2', async () => {
    const result = await runClockcheck(['sink', '--secret-env', 'CLOCKCHECK_NO_SUCH_VARIABLE'], { ...process.env, CLOCKCHECK_NO_SUCH_VARIABLE: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/CLOCKCHECK_NO_SUCH_VARIABLE/);
  });

  it('reads the form, the secret variable and the listen address from --profile, and stops after --count deliveries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-sink-'));
    const profile = join(dir, 'profile.yaml');
    await writeFile(
      profile,
      [
        'webhook:',
        '  sink: { listen: 127.0.0.1:0 }',
        '  secret_env: HOOK_SECRET',
        '  notification:',
        '    id: /data/id',
        '    operation: { at: /type, value: "{event}.{change}" }',
        '    event: null',
        '    signature: { header: X-Signature-256, timestamp_header: null, signed: "{body}", prefix: "sha256=" }',
        '',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [DEV_BIN, 'sink', '--profile', profile, '--count', '2', '--max-time', '30s'], { cwd: ROOT, env: { ...process.env, HOOK_SECRET: SECRET } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await listening(child, () => stdout);
    const body = JSON.stringify({ type: 'users.created', data: { id: 12 } });
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    expect((await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signature-256': signature } })).status).toBe(200);
    await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signature-256': 'sha256=00' } });
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^signatures checked with the secret in HOOK_SECRET; the notification form of \S+profile\.yaml$/m);
    expect(stdout).toMatch(/^#1 \S+ POST \/ users\.created id=12; signature verified; answered 200$/m);
    expect(stdout).toMatch(/^#2 .*signature FAILED: x-signature-256 does not match the HMAC-SHA256 of body/m);
    expect(stdout).toMatch(/^2 deliveries \(1 signature FAILED\)$/m);
  }, 40_000);

  it('exits 2 with one line when its port is in use', async () => {
    const { startSink } = await import('../../src/webhooks/sink.ts');
    const taken = await startSink();
    try {
      const result = await runClockcheck(['sink', '--port', new URL(taken.url).port], process.env);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`clockcheck: cannot listen on 127.0.0.1:${new URL(taken.url).port}: the port is in use (choose another with --port, or 0 for a free one)`);
    } finally {
      await taken.close();
    }
  }, 20_000);

  it('exits 1 at --max-time when --count deliveries did not arrive', async () => {
    const result = await runClockcheck(['sink', '--count', '1', '--max-time', '500ms'], process.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^0 deliveries$/m);
    expect(result.stderr).toMatch(/0 of the 1 deliveries awaited arrived within --max-time 500ms/);
  }, 20_000);
});

/** The URL of the sink's `listening` line. */
function listening(child: { stdout: NodeJS.ReadableStream }, stdout: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${stdout()}`)), 20_000);
    const look = () => {
      const match = /^listening (\S+)$/m.exec(stdout());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', () => setImmediate(look));
  });
}
