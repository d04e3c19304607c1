import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The test tiers (CONTRIBUTING.md, "Tests"). The quick tier (`npm run test:quick`, the inner loop)
 * is every test file that starts no server and no process: it calls the code, on a controlled clock
 * where time matters. Everything else (servers, the CLI as a process, peer tools, a browser) is the
 * integration tier, and so is a file that reads what its setup builds (BUILT); `npm test` runs both.
 * A file is sorted by what it names (SERVER_OR_PROCESS); a quick file that starts a server or a
 * process anyway, through a helper, fails at that call (test/support/quick-tier-guard.ts), so the
 * sorting cannot go stale unseen.
 */
const ROOT = join(import.meta.dirname, '..');

/** What a test file names when it starts a server, a process, a browser or a peer tool. */
const SERVER_OR_PROCESS =
  /startReferenceServer|startTestServer|startEmbeddedTarget|startHttpsServer|startTcpServer|startRunSink|certifyEmbedded|certifyServer|\bcertify\(|startHostile|hostile-target|echo-target|createServer|createSecureServer|\.listen\(|startSink|runClockcheck|runProcess|runMeasured|node:child_process|DocSandbox|chromium|playwright|fetch\(|selftest\(|runLoad|autocannon|undici/;

/** What a test file names when it reads what the integration tier's setup builds (the sources compiled into .devbuild/). */
const BUILT = /\bDEV_BIN\b|\.devbuild/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** The quick tier's files, relative to the repository root. */
export function quickTestFiles(): string[] {
  return testFiles(join(ROOT, 'test')).filter((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return !SERVER_OR_PROCESS.test(text) && !BUILT.test(text);
  });
}
