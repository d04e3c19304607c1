import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The repository root, where `bin/clockcheck.mjs` lives. */
export const ROOT = join(import.meta.dirname, '../..');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command ...args` in the repository root with exactly `env` as its environment, to completion. */
export function runProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `clockcheck ...args` (node bin/clockcheck.mjs) with exactly `env` as its environment. */
export function runClockcheck(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runProcess(process.execPath, [join(ROOT, 'bin/clockcheck.mjs'), ...args], env);
}

/** Every file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
