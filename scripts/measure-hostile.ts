/**
 * One command against one hostile target of test/support/hostile-target.ts, measured: wall time, exit
 * code, peak RSS, requests the target received (issue 24's before/after figures). The profile sets
 * only a fast rate limit (5 per 1 s), so every deadline is the default.
 *
 *   npx tsx scripts/measure-hostile.ts MODE bursts|after-first run|load|init [extra args]
 *   e.g. npx tsx scripts/measure-hostile.ts endless-headers bursts run --only rate-limit/boundary
 *
 * KILL_MS (default 150000) kills the command after that long (then `killed: true`).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_BIN, runMeasured } from '../test/support/cli.ts';
import { startHostileTarget, type HostileMode } from '../test/support/hostile-target.ts';

const [mode, on, command, ...extra] = process.argv.slice(2) as [HostileMode, 'bursts' | 'after-first', string, ...string[]];
const TOKEN = 'tok-measure-5c1b77d0';
const target = await startHostileTarget({ mode, token: TOKEN, hostileOn: on });
const work = await mkdtemp(join(tmpdir(), `m-${mode}-`));
await writeFile(join(work, 'ca.pem'), target.tls.caPem);
await writeFile(join(work, 'profile.yaml'), 'rate_limit: { limit: 5, window: 1s }\n');
const args = command === 'init'
  ? [DEV_BIN, 'init', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--out', join(work, 'p.yaml'), '--rate-limit', '600/60s', ...extra]
  : command === 'load'
  ? [DEV_BIN, 'load', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--report-dir', join(work, 'r'), ...extra]
  : [DEV_BIN, 'run', '--target', target.origin, '--ca', join(work, 'ca.pem'), '--profile', join(work, 'profile.yaml'), '--report-dir', join(work, 'r'), '--quiet', ...extra];
const r = await runMeasured(process.execPath, args, { ...process.env, CLOCKCHECK_TOKEN: TOKEN }, Number(process.env.KILL_MS ?? 150_000));
console.log(JSON.stringify({ mode, on, command, extra, code: r.code, killed: r.killed, wallS: +(r.wallMs / 1000).toFixed(1), rssMB: Math.round(r.peakRssBytes / 2 ** 20), received: target.received.length, stderr: r.stderr.slice(-400) }));
await target.close();
process.exit(0);
