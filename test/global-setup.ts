import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSources } from './support/source-build.ts';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, '.devbuild');

/**
 * Before the tests (and before each rerun in watch mode): the sources as they are now, transpiled
 * into .devbuild/, its launcher bundled as the package's is (scripts/bundle-bin.mjs), and
 * CLOCKCHECK_TEST_BIN pointing at it, so the CLI the tests start is today's code without tsx's loader
 * in every child process (test/support/cli.ts DEV_BIN).
 */
export default async function setup(project: TestProject): Promise<void> {
  await buildSources(ROOT, OUT);
  // The shipped suites parsed, as `npm run build` writes them beside the compiled loader, and the command bundled as the package's bin is.
  execFileSync(process.execPath, [join(ROOT, 'scripts/cache-suites.mjs'), OUT]);
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-bin.mjs'), OUT]);
  process.env.CLOCKCHECK_TEST_BIN = join(OUT, 'bin/clockcheck.js');
  project.onTestsRerun(async () => {
    await buildSources(ROOT, OUT);
    execFileSync(process.execPath, [join(ROOT, 'scripts/cache-suites.mjs'), OUT]);
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-bin.mjs'), OUT]);
  });
}
