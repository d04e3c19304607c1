import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selftest } from '../../src/run/selftest.ts';
import { selftestWorkersAvailable } from '../../src/run/selftest-workers.ts';
import { runClockcheck } from '../support/cli.ts';

const SUITES = join(import.meta.dirname, '../../suites');

/**
 * The compiled selftest certifies faults in worker threads (two cores side by side); from the
 * sources, in this thread. The detection matrix must not depend on where a fault was certified: the
 * same verdicts, catching checks and collateral rules, fault by fault (attempts and times aside).
 */
/** Faults the worker threads certify (a rate-limit fault is certified in the main thread, as from the sources). */
const FAULTS = ['pages-overlap', 'time-12h-accepted', 'break-duration-minutes', 'malformed-json-500'];

/** What the matrix says of one fault, without its attempts. */
const row = (d: { fault: string | { name: string }; verdict: string; catchingChecks: readonly string[]; catchingProperties: number; otherRules: readonly string[] }) => ({
  fault: typeof d.fault === 'string' ? d.fault : d.fault.name,
  verdict: d.verdict,
  catchingChecks: [...d.catchingChecks].sort(),
  catchingProperties: d.catchingProperties,
  otherRules: [...d.otherRules].sort(),
});

describe('the selftest in worker threads', () => {
  it('is used by the compiled code only', () => {
    expect(selftestWorkersAvailable()).toBe(false);
  });

  // Two selftests with their clean and sparse-seed certifications: about 80 s alone, past two minutes while other processes keep the cores busy.
  it('gives the same detection matrix as the selftest in one thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-selftest-workers-'));
    // One after the other: side by side they would compete for the cores the selftest's bursts time.
    const threaded = await runClockcheck(['selftest', '--dialect', 'bare', '--budget', '60', '--seed', '5', '--report-dir', dir, ...FAULTS.flatMap((f) => ['--fault', f])], process.env);
    const inThread = await selftest({ suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 5, budget: 60, dialects: ['bare'], faults: FAULTS, concurrency: 2 });
    // Not its exit code: the clean server's and the seeds' bursts, in 1 s windows, may go unjudged while
    // other test files keep the cores busy (CI's own selftest runs alone); the faults here have no bursts.
    expect(`${threaded.stdout}\n${threaded.stderr}`).toMatch(/^4 caught .*, 0 missed of 4 fault certifications in 1 dialect/m);
    const [file] = (await readdir(dir)).filter((f) => f.startsWith('selftest-'));
    const report = JSON.parse(await readFile(join(dir, file!), 'utf8')) as { dialects: { detections: Parameters<typeof row>[0][] }[] };
    const fromWorkers = report.dialects[0]!.detections.map(row);
    expect(fromWorkers.map((d) => d.fault).sort()).toEqual([...FAULTS].sort());
    expect(fromWorkers).toEqual(inThread.dialects[0]!.detections.map(row));
    expect(fromWorkers.every((d) => d.verdict === 'caught')).toBe(true);
  }, 300_000);
});
