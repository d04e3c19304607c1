import { defineConfig } from 'vitest/config';
import { quickTestFiles } from './test/tiers.ts';

const quick = quickTestFiles();

/**
 * Two tiers (test/tiers.ts, CONTRIBUTING.md "Tests"): `unit`, the files that start no server and no
 * process (`npm run test:quick`), and `integration`, the rest, after the sources are bundled for
 * the CLI the tests start (test/global-setup.ts). `npm test` runs both, four files at a time: on two
 * cores the integration files spend much of their time waiting on sockets, processes and windows
 * (with three, some 0.2 of a core sat idle: a clean-clone CI's npm test took 429 s; a local run with four, 394 s).
 * The transformed test and source modules are kept on disk between runs (experimental.fsModuleCache,
 * keyed by each file's content: a second `npm test` transforms only what changed; `npx vitest
 * --clearCache` empties it).
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 4,
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: quick, setupFiles: ['test/support/quick-tier-guard.ts'], isolate: false },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: quick, globalSetup: ['test/global-setup.ts'], isolate: false },
      },
    ],
  },
});
