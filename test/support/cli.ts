import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '../..');

/**
 * `clockcheck` from the sources as they are, with no `npm run build`: under vitest the bundled
 * copy test/global-setup.ts makes before the tests (CLOCKCHECK_TEST_BIN); elsewhere (scripts, a
 * bench) the development launcher, which runs the TypeScript through tsx. test/package/npm-pack.test.ts
 * checks the compiled package.
 */
export const DEV_BIN = process.env.CLOCKCHECK_TEST_BIN ?? join(ROOT, 'bin/clockcheck-dev.mjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command ...args` in `cwd` (the repository root by default) with exactly `env` as its environment, to completion. */
export function runProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string = ROOT): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `clockcheck ...args` (node DEV_BIN) with exactly `env` as its environment. */
export function runClockcheck(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runProcess(process.execPath, [DEV_BIN, ...args], env);
}

/** Every file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A process run to its end (or killed at its deadline), with its wall time and peak resident memory. */
export interface MeasuredResult extends CliResult {
  readonly wallMs: number;
  /** The process's peak RSS (VmHWM in /proc, sampled every 50 ms until it exits), in bytes; 0 where /proc is absent. */
  readonly peakRssBytes: number;
  /** Killed (SIGKILL) at `deadlineMs` because it had not ended. */
  readonly killed: boolean;
}

/** Runs `command ...args` like runProcess, sampling its peak RSS and killing it after `deadlineMs`. */
export function runMeasured(command: string, args: readonly string[], env: NodeJS.ProcessEnv, deadlineMs: number): Promise<MeasuredResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    let peakRssBytes = 0;
    let killed = false;
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
        peakRssBytes = Math.max(peakRssBytes, kb * 1024);
      } catch {
        // exited, or no /proc
      }
    };
    const sampler = setInterval(sample, 50);
    const deadline = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(deadline);
      resolve({ code, stdout, stderr, wallMs: performance.now() - started, peakRssBytes, killed });
    });
  });
}

/** The in-process runs' turn: one at a time, since each captures the process's stdout and stderr. */
let turn: Promise<void> = Promise.resolve();

/**
 * `clockcheck ...args` in this process, through the same entry point as the bin (cli/main.ts), with
 * what it prints to stdout and stderr captured: for tests where the process is not the subject (a
 * spawn costs half a second of CPU). Exit codes, signals, the environment and the bin's own guards
 * are the process's: test those with runClockcheck. `env` is set in process.env for the call and
 * put back after it. Runs one at a time.
 */
export async function runClockcheckHere(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  const before = turn;
  let release!: () => void;
  turn = new Promise((resolve) => (release = resolve));
  await before;
  const { main } = await import('../../src/cli/main.ts');
  const { format } = await import('node:util');
  let stdout = '';
  let stderr = '';
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  const saved = { out: process.stdout.write, err: process.stderr.write, log: console.log, info: console.info, warn: console.warn, error: console.error };
  const envBefore = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  console.log = console.info = (...words: unknown[]) => void (stdout += `${format(...words)}\n`);
  console.warn = console.error = (...words: unknown[]) => void (stderr += `${format(...words)}\n`);
  try {
    const code = await main([...args]);
    return { code, stdout, stderr };
  } finally {
    Object.assign(process.stdout, { write: saved.out });
    Object.assign(process.stderr, { write: saved.err });
    Object.assign(console, { log: saved.log, info: saved.info, warn: saved.warn, error: saved.error });
    for (const [key, value] of Object.entries(envBefore)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    release();
  }
}
