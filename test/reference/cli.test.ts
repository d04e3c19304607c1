import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.ts';
import { isRuleId, RULES } from '../../src/contract/rules.ts';
import { DEV_BIN as BIN, ROOT, runClockcheck, type CliResult } from '../support/cli.ts';

type Run = CliResult;

/** Runs `clockcheck ...args` to completion in the repository root, with no token in the environment. */
const run = (...args: string[]) => runClockcheck(args, { ...process.env, CLOCKCHECK_TOKEN: '' });

describe('clockcheck rules', () => {
  let result: Run;

  beforeAll(async () => {
    result = await run('rules');
  });

  it('exits 0', () => {
    expect(result.code, result.stderr).toBe(0);
  });

  it('prints at least 60 rule lines, each with a rule ID and a § section', () => {
    const lines = result.stdout.split('\n').filter((line) => /^[A-Z][A-Z0-9-]+\s+§/.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(60);
    for (const line of lines) {
      const [id] = line.split(/\s+/);
      expect(isRuleId(id as string), line).toBe(true);
      expect(line).toMatch(/§\d+(\.\d+)?/);
    }
  });

  it('counts scenarios, property families and the rate-limit checks as coverage; no rule is a gap, the two profile readings included', () => {
    const line = (id: string) => result.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('RATE-LIMIT-SLIDING')).not.toContain('UNCOVERED');
    expect(line('RATE-LIMIT-BODY')).not.toContain('UNCOVERED');
    expect(line('USR-EMAIL-FORMAT')).not.toContain('UNCOVERED');
    expect(line('USR-EDIT-REQUIRED')).not.toContain('UNCOVERED');
    expect(result.stdout.split('\n').filter((l) => l.includes('UNCOVERED')).map((l) => l.split(/\s+/)[0])).toEqual([]);
    expect(result.stdout).toMatch(/covered by \d+ scenarios, 11 property families, and \d+ built-in checks \(the preflight's auth\/token-form, .*\); 0 uncovered\.$/m);
  });

  it('says so when --uncovered finds no gap', async () => {
    const uncovered = await run('rules', '--uncovered');
    expect(uncovered.stdout).toBe(`No uncovered rule: every one of the ${RULES.length} rules is covered by a check.\n`);
  });

  it('prints every rule of the catalog exactly once', () => {
    const ids = result.stdout.split('\n').filter((line) => /^[A-Z][A-Z0-9-]+\s+§/.test(line)).map((line) => line.split(/\s+/)[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(RULES.map((r) => r.id).sort());
  });
});

describe('clockcheck serve --list-faults', () => {
  let result: Run;

  beforeAll(async () => {
    result = await run('serve', '--list-faults');
  });

  it('lists at least 30 faults, each with the rule ID it breaks', () => {
    expect(result.code, result.stderr).toBe(0);
    const names = new Set<string>(FAULTS.map((f) => f.name));
    const lines = result.stdout.split('\n').filter((line) => names.has(line.split(/\s+/)[0] as string));
    expect(lines.length).toBeGreaterThanOrEqual(30);
    expect(lines).toHaveLength(FAULTS.length);
    for (const line of lines) {
      const [name, rule] = line.split(/\s+/);
      expect(isRuleId(rule as string), line).toBe(true);
      expect(FAULTS.find((f) => f.name === name)?.rule).toBe(rule);
    }
    expect(result.stdout).toContain(`${FAULTS.length} faults`);
  });
});

/** A `clockcheck serve` process, started and described: its stdout lines once the `rate limit` line (the last of its description) came. */
interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  readonly exit: Promise<number | null>;
}

async function startServe(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: ROOT, env });
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let buffered = '';
  const lines = await new Promise<string[]>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve printed no rate limit line; stdout: ${buffered}; stderr: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const now = buffered.split('\n');
      if (now.some((line) => line.startsWith('rate limit '))) {
        clearTimeout(timer);
        ready(now);
      }
    });
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, lines, exit };
}

/** Stops a served process and removes the CA directory it wrote under the temporary directory. */
async function stopServe(served: Served | undefined): Promise<void> {
  if (served === undefined) return;
  if (served.child.exitCode === null) {
    served.child.kill('SIGTERM');
    await served.exit;
  }
  const ca = served.lines.find((line) => line.startsWith('ca '))?.slice(3);
  if (ca && dirname(ca).startsWith(tmpdir())) await rm(dirname(ca), { recursive: true, force: true });
}

describe('clockcheck serve --port 0 --rate-limit off', () => {
  let served: Served | undefined;
  let child: ChildProcessWithoutNullStreams;
  let lines: string[] = [];
  let exit: Promise<number | null>;

  beforeAll(async () => {
    served = await startServe(['--port', '0', '--rate-limit', 'off'], { ...process.env, CLOCKCHECK_TOKEN: '' });
    ({ child, lines, exit } = served);
  });

  afterAll(() => stopServe(served));

  it('prints `listening https://127.0.0.1:PORT` as its first stdout line', () => {
    expect(lines[0]).toMatch(/^listening https:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(lines[0]!.split(':').at(-1))).toBeGreaterThan(0);
  });

  it('prints a `ca <path>` line naming a PEM file, and a `token` line', async () => {
    const ca = lines.find((line) => line.startsWith('ca '));
    expect(ca).toBeDefined();
    expect(await readFile(ca!.slice(3), 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
    const token = lines.find((line) => line.startsWith('token '));
    expect(token?.slice(6)).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(lines.find((line) => line.startsWith('rate limit '))).toMatch(/^rate limit off/);
  });

  it('names the dialect and its readings of the open rules', () => {
    expect(lines).toContain('dialect standard (e-mail format validated; edit requires none; sort names both)');
  });

  it('serves GET /api/public/users to a client that trusts the printed CA and sends the printed token', async () => {
    const origin = lines[0]!.slice('listening '.length);
    const caPem = await readFile(lines.find((line) => line.startsWith('ca '))!.slice(3), 'utf8');
    const token = lines.find((line) => line.startsWith('token '))!.slice(6);
    const agent = new Agent({ connect: { ca: caPem } });
    try {
      const ok = await request(`${origin}/api/public/users`, { dispatcher: agent, headers: { authorization: token } });
      expect(ok.statusCode).toBe(200);
      const body = (await ok.body.json()) as { items: unknown[]; meta_data: { pagination: { total: number } } };
      expect(body.meta_data.pagination.total).toBe(12);
      const refused = await request(`${origin}/api/public/users`, { dispatcher: agent, headers: { authorization: 'wrong' } });
      expect(refused.statusCode).toBe(401);
      await refused.body.text();
      // With --rate-limit off a burst is served in full.
      const burst = await Promise.all(
        Array.from({ length: 70 }, async () => {
          const r = await request(`${origin}/api/public/users?page_size=1`, { dispatcher: agent, headers: { authorization: token } });
          await r.body.text();
          return r.statusCode;
        }),
      );
      expect(burst.every((s) => s === 200)).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('refuses a client that does not trust the CA', async () => {
    const origin = lines[0]!.slice('listening '.length);
    await expect(request(`${origin}/api/public/users`)).rejects.toThrow();
  });

  it('exits 0 when terminated', async () => {
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});

describe('clockcheck serve --second-company', () => {
  let served: Served | undefined;
  let lines: string[] = [];

  beforeAll(async () => {
    const env = { ...process.env, CLOCKCHECK_TOKEN: 'first-from-env', CLOCKCHECK_SECOND_TOKEN: 'second-from-env' };
    served = await startServe(['--port', '0', '--rate-limit', '5/60s', '--second-company', '--rate-limit-windows', 'per-token'], env);
    ({ lines } = served);
  });

  afterAll(() => stopServe(served));

  it("names the second token's source (never the token itself), its seed and the windows", () => {
    expect(lines).toContain('second company token (from CLOCKCHECK_SECOND_TOKEN)');
    expect(lines.join('\n')).not.toContain('second-from-env');
    expect(lines).toContain('second company users: admin=2 manager=4 employee=6 (all active: 2,4,6); inactive user 8');
    expect(lines.find((line) => line.startsWith('second company timezone '))).toMatch(/America\/Chicago; rate-limit windows per token/);
  });

  it("serves each company its own users, each token in its own window", async () => {
    const origin = lines[0]!.slice('listening '.length);
    const caPem = await readFile(lines.find((line) => line.startsWith('ca '))!.slice(3), 'utf8');
    const agent = new Agent({ connect: { ca: caPem } });
    try {
      const users = async (token: string) => {
        const reply = await request(`${origin}/api/public/users?page_size=100`, { dispatcher: agent, headers: { authorization: token } });
        const body = (await reply.body.json()) as { meta_data: { pagination: { total: number } } };
        return [body.meta_data.pagination.total, reply.headers['x-ratelimit-remaining']];
      };
      expect(await users('first-from-env')).toEqual([12, '4']);
      expect(await users('second-from-env')).toEqual([4, '4']);
    } finally {
      await agent.close();
    }
  });
});

describe('clockcheck serve with bad options', () => {
  it('exits 2 when the second token is the first', async () => {
    const result = await runClockcheck(['serve', '--second-company'], { ...process.env, CLOCKCHECK_TOKEN: 'same', CLOCKCHECK_SECOND_TOKEN: 'same' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/second company's token/);
  });

  it('exits 2 for --second-timezone without --second-company', async () => {
    const result = await run('serve', '--second-timezone', 'Europe/Berlin');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--second-timezone goes with --second-company/);
  });

  it('exits 2 with a message naming an unknown fault', async () => {
    const result = await run('serve', '--fault', 'nope');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown fault "nope"/);
    expect(result.stdout).not.toMatch(/^listening/m);
  });

  it('exits 2 with a message naming the dialects for an unknown --dialect', async () => {
    const result = await run('serve', '--dialect', 'symfony');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--dialect is one of standard, alternative, laravel/);
  });

  it('describes each dialect in its usage text', async () => {
    const result = await run('serve', '--help');
    expect(result.code).toBe(0);
    for (const dialect of ['standard', 'alternative', 'laravel']) expect(result.stdout).toMatch(new RegExp(`^  ${dialect} `, 'm'));
  });

  it('exits 2 with a message for a malformed --rate-limit', async () => {
    const result = await run('serve', '--rate-limit', 'lots');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/LIMIT\/WINDOW/);
  });
});
