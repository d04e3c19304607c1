import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.ts';
import { selftest } from '../../src/selftest/selftest.ts';
import { FaultWorkerPool, WORKER_NICENESS, selftestWorkersAvailable } from '../../src/selftest/selftest-workers.ts';
import { DEV_BIN, runClockcheck } from '../support/cli.ts';

const SUITES = join(import.meta.dirname, '../../suites');
/** The worker's module as the tests' build bundles it (test/global-setup.ts: .devbuild/, as dist/). */
const BUILT_WORKER = pathToFileURL(join(dirname(DEV_BIN), '../selftest/selftest-worker.js'));

/**
 * The compiled selftest certifies faults in worker threads (two cores side by side); from the
 * sources, in this thread. The detection matrix must not depend on where a fault was certified: the
 * same verdicts, catching checks and collateral rules, fault by fault (attempts and times aside).
 */
/** Faults the worker threads certify (a rate-limit fault is certified in the main thread, as from the sources). */
// Three faults on two threads: a thread takes a second job once its first is done.
const FAULTS = ['pages-overlap', 'time-12h-accepted', 'malformed-json-500'];

/** What the matrix says of one fault, without its attempts. */
const row = (d: { fault: string | { name: string }; verdict: string; catchingChecks: readonly string[]; catchingProperties: number; otherRules: readonly string[] }) => ({
  fault: typeof d.fault === 'string' ? d.fault : d.fault.name,
  verdict: d.verdict,
  catchingChecks: [...d.catchingChecks].sort(),
  catchingProperties: d.catchingProperties,
  otherRules: [...d.otherRules].sort(),
});

/** How many threads of this process run at `niceness` (/proc/self/task/<tid>/stat, field 19). */
function threadsAtNiceness(niceness: number): number {
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      return Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]) === niceness;
    } catch {
      return false; // the thread ended meanwhile
    }
  }).length;
}

describe('the selftest in worker threads', () => {
  it('is used by the compiled code only', () => {
    expect(selftestWorkersAvailable()).toBe(false);
  });

  // The faults alone in both (--faults-only: the clean server and the seeds are CI's full selftest's); about 15 s alone.
  it('gives the same detection matrix as the selftest in one thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-selftest-workers-'));
    // One after the other: side by side they would compete for the cores the selftest's bursts time.
    const threaded = await runClockcheck(['selftest', '--dialect', 'bare', '--budget', '60', '--seed', '5', '--concurrency', '2', '--faults-only', '--report-dir', dir, ...FAULTS.flatMap((f) => ['--fault', f])], process.env);
    const inThread = await selftest({ suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 5, budget: 60, dialects: ['bare'], faults: FAULTS, concurrency: 2, faultsOnly: true });
    expect(inThread.dialects[0]!.clean).toBeUndefined();
    expect(inThread.dialects[0]!.seeds).toEqual([]);
    expect(inThread.passed).toBe(true);
    // No certification with bursts (none of these faults is the limiter's): the exit code is the matrix's.
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(`${threaded.stdout}\n${threaded.stderr}`).toMatch(/^3 caught .*, 0 missed of 3 fault certifications in 1 dialect/m);
    expect(threaded.stdout).not.toMatch(/clean reference server|company, bare dialect/);
    const [file] = (await readdir(dir)).filter((f) => f.startsWith('selftest-'));
    const report = JSON.parse(await readFile(join(dir, file!), 'utf8')) as { dialects: { detections: Parameters<typeof row>[0][] }[] };
    const fromWorkers = report.dialects[0]!.detections.map(row);
    expect(fromWorkers.map((d) => d.fault).sort()).toEqual([...FAULTS].sort());
    expect(fromWorkers).toEqual(inThread.dialects[0]!.detections.map(row));
    expect(fromWorkers.every((d) => d.verdict === 'caught')).toBe(true);
  }, 300_000);

  // The pool starts beside the main thread's certifications with bursts; when one of those throws, the selftest stops the pool.
  it('stops its threads at once, leaving the jobs not yet begun undone', async () => {
    const certification = { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 5, budget: 60, dialect: 'bare' as const, bursts: false };
    const found: string[] = [];
    const pool = new FaultWorkerPool(FAULTS.map((fault) => ({ fault, certification })), (d) => found.push(d.fault.name), BUILT_WORKER);
    pool.grow(2);
    // On Linux each worker lowers its own thread's priority, so the main thread's bursts keep their timing beside them.
    if (process.platform === 'linux') await expect.poll(() => threadsAtNiceness(WORKER_NICENESS), { timeout: 10_000 }).toBe(2);
    const started = Date.now();
    await pool.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    // Ended threads send nothing more: the jobs in flight end with the threads, the rest never begin.
    await expect(pool.finished()).rejects.toThrow(/worker ended/);
    expect(found).toEqual([]);
  }, 60_000);

  it("reports a worker's failed certification as clockcheck's own error (exit 70), naming the fault", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-selftest-worker-error-'));
    // A worker that answers every job with the error a throwing certification sends back (selftest-worker.ts).
    const worker = join(dir, 'failing-worker.mjs');
    await writeFile(worker, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => parentPort.postMessage({ error: 'boom' }));\n");
    const certification = { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 5, budget: 60, dialect: 'bare' as const, bursts: false };
    const pool = new FaultWorkerPool([{ fault: FAULTS[0]!, certification }], () => {}, pathToFileURL(worker));
    pool.grow(1);
    const error = await pool.finished().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as InternalError).code).toBe('CLOCKCHECK_INTERNAL');
    expect((error as InternalError).message).toBe(`the selftest's worker could not certify ${FAULTS[0]!}: boom`);
    await rm(dir, { recursive: true, force: true });
  });
});
