import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

const exec = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
const BIN = manifest.bin.clockcheck as string;

/**
 * `npm run build` leaves the bin executable, so `npx clockcheck` (or `./dist/bin/clockcheck.js`) in
 * a checkout runs it. The bundle (scripts/bundle.mjs) writes files without the executable bit, so a
 * step after it must set it; here the steps after tsc run, as npm runs a script (`sh -c`), on a
 * stand-in for the bundle's bin: the build itself (several seconds of tsc) is left to
 * test/package/npm-pack.test.ts, whose `npm pack` runs it through `prepare` and then runs the built
 * bin directly.
 */
describe('the build script', () => {
  const steps = (manifest.scripts.build ?? '').split(' && ');
  const tsc = steps.findIndex((step) => /^tsc\b/.test(step));
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-build-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('compiles with tsc, then has steps after it', () => {
    expect(tsc).toBeGreaterThanOrEqual(0);
    expect(steps.length).toBeGreaterThan(tsc + 1);
  });

  it('makes the bin the bundle wrote (mode 644) executable, and it then runs by its #! line', async () => {
    const bin = join(dir, BIN);
    await mkdir(join(bin, '..'), { recursive: true });
    await writeFile(bin, "#!/usr/bin/env node\nconsole.log('ran');\n");
    await chmod(bin, 0o644);
    await expect(exec(bin)).rejects.toThrow(/EACCES/);
    // Parsing the shipped suites and bundling need the sources: what they write is
    // test/scenarios/suite-cache.test.ts's and the CLI tests' (their CLI is bundled so), and
    // npm-pack.test.ts builds the package with both.
    const needsSources = (step: string) => step.includes('scripts/cache-suites.mjs') || step.includes('scripts/bundle.mjs');
    for (const step of steps.slice(tsc + 1).filter((s) => !needsSources(s))) await exec('sh', ['-c', step], { cwd: dir });
    expect(statSync(bin).mode & 0o777).toBe(0o755);
    const { stdout } = await exec(bin);
    expect(stdout).toBe('ran\n');
  });
});
