import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parseProfile } from '../../src/profile/profile.ts';
import { DEV_BIN, runMeasured } from '../support/cli.ts';
import { startHostileTarget, type HostileTarget } from '../support/hostile-target.ts';

const TOKEN = 'tok-init-empty-5e0b';
let target: HostileTarget | undefined;
afterAll(() => target?.close());

it('a target whose lists are all empty: init writes a profile that parses (fixtures: {}), every fixture key left to fill in', async () => {
  target = await startHostileTarget({ mode: 'goes-silent', token: TOKEN, servedCalls: 1000 }); // serves an empty list to every call
  const work = await mkdtemp(join(tmpdir(), 'clockcheck-init-empty-'));
  await writeFile(join(work, 'ca.pem'), target.tls.caPem);
  const out = join(work, 'profile.yaml');
  const result = await runMeasured(process.execPath, [DEV_BIN, 'init', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--out', out, '--rate-limit', '600/60s'], { ...process.env, CLOCKCHECK_TOKEN: TOKEN }, 60_000);
  expect(result.stderr).not.toMatch(/internal error/);
  expect(result.code).toBe(0);
  const text = await readFile(out, 'utf8');
  expect(text).toMatch(/^fixtures: \{\} {3}# none found/m);
  expect(parseProfile(text, out).fixtures).toEqual({});
}, 60_000);
