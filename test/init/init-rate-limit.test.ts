import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { runClockcheck } from '../support/cli.ts';

const TOKEN = 'tok-init-rate-limit-3f9a0c';
let limited: ReferenceServer;
let unlimited: ReferenceServer;
let dir: string;

beforeAll(async () => {
  // The reference server states its limit in X-RateLimit-Limit (and nothing of its window); without a limit it states none.
  [limited, unlimited] = await Promise.all([startReferenceServer({ token: TOKEN, rateLimit: { limit: 60, windowMs: 1000 } }), startReferenceServer({ token: TOKEN, rateLimit: null })]);
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-init-rate-'));
});
afterAll(async () => {
  await Promise.all([limited?.close(), unlimited?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A comment of the profile as a pattern: `sentence`, wrapped anywhere onto `# ` lines. */
const comment = (sentence: string) => new RegExp(`\n# ${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '(?: |\n# )')}\n`);

/** `clockcheck init` against `server`, writing `name`: its output and the profile text. */
async function init(server: ReferenceServer, name: string, args: readonly string[] = []): Promise<{ stdout: string; text: string; code: number | null }> {
  const ca = join(dir, `${name}.ca.pem`);
  await writeFile(ca, server.tls.caPem);
  const out = join(dir, name);
  const r = await runClockcheck(['init', '--target', server.origin, '--ca', ca, '--quiet', '--out', out, ...args], { ...process.env, CLOCKCHECK_TOKEN: TOKEN });
  expect(r.stderr).toBe('');
  return { stdout: r.stdout, text: await readFile(out, 'utf8'), code: r.code };
}

describe('clockcheck init writes the rate limit', () => {
  it('given with --rate-limit, as the profile rate_limit, saying so', async () => {
    const { stdout, text, code } = await init(limited, 'given.yaml', ['--rate-limit', '60/1s']);
    expect(code).toBe(0);
    expect(parseProfile(text, 'given.yaml').rate_limit).toMatchObject({ limit: 60, window: 1000 });
    expect(text).toContain('\n# from --rate-limit, which init paced itself by (the answers state X-RateLimit-Limit: 60)\nrate_limit:\n  limit: 60\n  window: 1s\n');
    expect(stdout).toContain('  found      rate_limit: {"limit":60,"window":"1s"}\n');
    expect(stdout).toContain("they count against the target's limit (60 calls per 1 s) for one window.");
  }, 30_000);

  it("not given, as the target's X-RateLimit-Limit states it, naming the answer and the header", async () => {
    const { stdout, text, code } = await init(limited, 'header.yaml');
    expect(code).toBe(0);
    expect(parseProfile(text, 'header.yaml').rate_limit).toMatchObject({ limit: 60, window: 60_000 });
    expect(text).toMatch(comment("GET /api/public/users?page_size=100 → 200: X-RateLimit-Limit: 60; no header states the window, so it is §8's (1m)"));
    expect(text).toContain("(1m)\nrate_limit:\n  limit: 60\n  window: 1m\n");
    expect(stdout).toContain('  found      rate_limit: {"limit":60,"window":"1m"}\n');
  }, 30_000);

  it("neither given nor stated: left commented with the reason, and run reads the spec's 60 a minute", async () => {
    const { stdout, text, code } = await init(unlimited, 'none.yaml');
    expect(code).toBe(0);
    expect(text).not.toMatch(/^rate_limit:/m);
    expect(text).toMatch(comment("NOT FOUND: no answer states the target's limit (no X-RateLimit-Limit or RateLimit-Policy header) and no --rate-limit was given: the spec's 60 calls a minute (§8) applies"));
    expect(text).toContain('\n# rate_limit:\n#   limit: 60\n#   window: 60s\n');
    expect(parseProfile(text, 'none.yaml').rate_limit).toMatchObject({ limit: 60, window: 60_000 });
    expect(stdout).toMatch(/ {2}not found {2}rate_limit: no answer states the target's limit/);
  }, 30_000);
});
