import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, '.devbuild');

/**
 * Before the tests (and before each rerun in watch mode): the sources as they are now, bundled into
 * .devbuild/ as `npm run build` bundles them into dist/ (scripts/bundle.mjs, with the shipped suites
 * parsed by scripts/cache-suites.mjs; no declarations, no type check: `npm run typecheck` does that),
 * and CLOCKCHECK_TEST_BIN pointing at its command, so the CLI the tests start is today's code without
 * tsx's loader in every child process (test/support/cli.ts DEV_BIN). The dependencies are inlined
 * (--inline-packages): the tests start the command hundreds of times, each a fifth cheaper so; the
 * package's own form is run by test/package/npm-pack.test.ts and, in CI, by the compiled selftest.
 */
export default function setup(project: TestProject): void {
  build();
  project.onTestsRerun(build);
  process.env.CLOCKCHECK_TEST_BIN = join(OUT, 'bin/clockcheck.js');
}

function build(): void {
  rmSync(OUT, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), OUT, '--inline-packages']);
  execFileSync(process.execPath, [join(ROOT, 'scripts/cache-suites.mjs'), OUT]);
}
