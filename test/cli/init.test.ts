import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { runClockcheck } from '../support/cli.ts';

const TOKEN = 'tok-init-cli-5e1f07c2d9';
let server: ReferenceServer;
let dir: string;
let ca: string;

beforeAll(async () => {
  server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 60, windowMs: 1000 } });
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-init-'));
  ca = join(dir, 'ca.pem');
  await writeFile(ca, server.tls.caPem);
});
afterAll(async () => {
  await server.close();
});

const init = (args: readonly string[], token = TOKEN) =>
  runClockcheck(['init', '--target', server.origin, '--ca', ca, '--rate-limit', '60/1s', '--quiet', ...args], { ...process.env, CLOCKCHECK_TOKEN: token });

describe('clockcheck init (CLI)', () => {
  it('writes a profile run reads, prints what it found and what it left, and never writes the token', async () => {
    const out = join(dir, 'found.yaml');
    const r = await init(['--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*found\.yaml for https:\/\/127\.0\.0\.1:\d+: 15 keys found, 1 left for you\n/);
    expect(r.stdout).toContain('  found      fixtures.active_user_ids: [1,2,3]');
    expect(r.stdout).toContain('  found      date_range_ends: "inclusive"');
    expect(r.stdout).toContain('  not found  company_timezone: ');
    expect(r.stdout).toMatch(/\n\d+ requests \(read-only\); they count against the target's limit \(60 calls per 1 s\) for one window\.\nnext: clockcheck run --profile .*found\.yaml\n$/);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(r.stdout).not.toContain(TOKEN);
    expect(parseProfile(text, out)).toMatchObject({ target: server.origin, tls: { ca }, fixtures: { inactive_user_id: 4 } });
  }, 30_000);

  it('keeps an existing file unless --force, before sending anything', async () => {
    const out = join(dir, 'kept.yaml');
    await writeFile(out, 'fixtures: { job_id: 99 }\n');
    const refused = await init(['--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^clockcheck: init: .*kept\.yaml exists; pass --force to overwrite it, or --out another file\n$/);
    expect(await readFile(out, 'utf8')).toBe('fixtures: { job_id: 99 }\n');
    const forced = await init(['--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('job_id: 1\n');
  }, 30_000);

  it('exits 2 with one line when the token is refused in every form, and writes nothing', async () => {
    const out = join(dir, 'refused.yaml');
    const r = await init(['--out', out], 'tok-wrong-0000000000');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^clockcheck: the token was refused: GET https:\/\/127\.0\.0\.1:\d+\/api\/public\/users\?page_size=100 answered 401 .* to Authorization: <token> \(§5\.2\) and 401 to Authorization: Bearer <token>\. Check that CLOCKCHECK_TOKEN holds/);
    await expect(readFile(out, 'utf8')).rejects.toThrow(/ENOENT/);
  }, 30_000);

  it('with --probe-writes, says what it created', async () => {
    const out = join(dir, 'writes.yaml');
    const r = await init(['--out', out, '--probe-writes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ {2}created {4}user \d+, clockcheck\.init\.[0-9a-f]+@example\.com \(POST \/api\/public\/users → 201\)\n/);
    expect(parseProfile(await readFile(out, 'utf8'), out).status_codes).toEqual({ unauthenticated: 401, create: 201, update: 200, validation: 422 });
  }, 30_000);

  it('documents itself and insists on a target', async () => {
    const help = await runClockcheck(['init', '--help'], process.env);
    expect(help.stdout).toMatch(/^clockcheck init --target https:\/\/host\[:port\]/);
    expect(help.stdout).toContain('--probe-writes');
    const bare = await runClockcheck(['init'], process.env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('init: --target https://host[:port] is required');
  }, 30_000);
});
