import { spawnSync } from 'node:child_process';
import { cliBin, median } from './cli-bin.ts';

export interface StartupFigures {
  readonly label: string;
  /** The median wall time of a whole `clockcheck ...args` process, and each run's. */
  readonly startupMs: number;
  readonly runsMs: readonly number[];
}

/** Runs per figure; the first (cold file cache) is dropped. */
const RUNS = 11;

/** `clockcheck ...args` as a whole process (spawn to exit), RUNS times: the CLI's start-up cost. */
export function cliStartup(args: readonly string[]): StartupFigures {
  const bin = cliBin();
  const runsMs: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [bin, ...args], { stdio: 'ignore', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`clockcheck ${args.join(' ')} exited ${result.status ?? result.signal}`);
    if (i > 0) runsMs.push(performance.now() - started);
  }
  return { label: `clockcheck ${args.join(' ')}`, startupMs: median(runsMs), runsMs };
}
