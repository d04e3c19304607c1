import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certifyEmbedded } from '../src/embedded/embedded-target.ts';
import { DEFAULT_BUDGET } from '../src/cli/commands/run.ts';
import { cliBin, median } from './cli-bin.ts';

export interface CertificationFigures {
  readonly label: string;
  /** The median wall time of `runs` runs, and each run's. */
  readonly wallMs: number;
  readonly runsMs: readonly number[];
  readonly requests: number;
  readonly checks: number;
  readonly failed: number;
  readonly rulesCovered: number;
  readonly rulesTotal: number;
}

/** What the figures read from a report. */
interface ReportFigures {
  readonly requests: { readonly made: number };
  readonly checks: readonly unknown[];
  readonly summary: { readonly failed: number; readonly rulesCovered: number; readonly rulesTotal: number };
}

/** Runs in each figure: the "median over 5 runs". */
const RUNS = 5;
/** A CLI run that takes longer than this is killed and the bench fails. */
const RUN_DEADLINE_MS = 120_000;

/**
 * What `npm start` runs (`clockcheck run` with no target: the CLI starting, the embedded server in
 * its own process, the certification, the three reports), timed from the outside, RUNS times.
 * `CLOCKCHECK_BIN` measures another checkout or build (bench/cli-bin.ts).
 */
export async function npmStartCertification(): Promise<CertificationFigures> {
  const bin = cliBin();
  const runsMs: number[] = [];
  let last: ReportFigures | undefined;
  for (let i = 0; i < RUNS; i++) {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-bench-start-'));
    try {
      const started = performance.now();
      const exitCode = await new Promise<number | null>((done, fail) => {
        const child = spawn(process.execPath, [bin, 'run', '--quiet', '--seed', '1', '--report-dir', dir], { stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), RUN_DEADLINE_MS);
        child.once('error', fail);
        child.once('exit', (code) => {
          clearTimeout(timer);
          done(code);
        });
      });
      runsMs.push(performance.now() - started);
      if (exitCode !== 0) throw new Error(`clockcheck run exited ${exitCode} (bench run ${i + 1})`);
      const [runId] = await readdir(dir);
      last = JSON.parse(await readFile(join(dir, runId!, 'report.json'), 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return figuresOf(`npm start (clockcheck run, embedded), median of ${RUNS}`, runsMs, last!);
}

/** The figures of RUNS runs: the median wall time, and the last run's report. */
function figuresOf(label: string, runsMs: readonly number[], report: ReportFigures): CertificationFigures {
  const { requests, checks, summary } = report;
  return { label, wallMs: median(runsMs), runsMs, requests: requests.made, checks: checks.length, failed: summary.failed, rulesCovered: summary.rulesCovered, rulesTotal: summary.rulesTotal };
}

/** The certification alone, in this process (no CLI start, no server process, no reports), RUNS times. */
export async function embeddedCertification(): Promise<CertificationFigures> {
  const runsMs: number[] = [];
  let report: Awaited<ReturnType<typeof certifyEmbedded>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    report = await certifyEmbedded([], { suitesDir: join(import.meta.dirname, '../suites'), suiteGlob: '**/*.yaml', seed: 1, budget: DEFAULT_BUDGET.embedded });
    runsMs.push(performance.now() - started);
  }
  return figuresOf(`embedded certification in-process, median of ${RUNS}`, runsMs, report!);
}
