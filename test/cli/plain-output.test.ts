import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useColor } from '../../src/cli/color.ts';
import { DEV_BIN, ROOT, runClockcheck } from '../support/cli.ts';

const exec = promisify(execFile);
const ANSI = /\x1b\[/;

describe('useColor', () => {
  it('colours a terminal only, and never under NO_COLOR (non-empty) or TERM=dumb', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({}, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('clockcheck run output for CI logs', () => {
  it('--quiet prints the verdict line and nothing else, on stdout or stderr', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-quiet-'));
    const result = await runClockcheck(['run', '--quiet', '--only', 'auth/raw-token-accepted', '--report-dir', dir], process.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PASSED  \d+ of \d+ rules judged\n$/);
    expect(result.stderr).toBe('');
  });

  it('a pipe gets plain text: no ANSI sequences in the summary or the progress lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-plain-'));
    const result = await runClockcheck(['run', '--only', 'auth/raw-token-accepted', '--report-dir', dir], process.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PASSED/m);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stderr).not.toMatch(ANSI);
  });

  it.runIf(process.platform === 'linux')('a terminal gets colours, and NO_COLOR takes them away', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-tty-'));
    // script(1) gives the command a pseudo-terminal; -e keeps its exit code.
    const command = `${process.execPath} ${DEV_BIN} run --only auth/raw-token-accepted --report-dir ${dir}`;
    const inTerminal = (env: NodeJS.ProcessEnv) => exec('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, TERM: 'xterm', ...env }, timeout: 60_000 });
    const { NO_COLOR: _unset, ...withoutNoColor } = process.env;
    const coloured = await exec('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...withoutNoColor, TERM: 'xterm' }, timeout: 60_000 });
    // Colour codes (ESC [ … m), not just the progress line's erase-line sequence.
    expect(coloured.stdout).toMatch(/\x1b\[[0-9;]*m/);
    const plain = await inTerminal({ NO_COLOR: '1' });
    expect(plain.stdout).toMatch(/PASSED/);
    // The progress line still redraws itself on a terminal (\r, erase line); no colour codes (ESC [ … m).
    expect(plain.stdout).not.toMatch(/\x1b\[[0-9;]*m/);
  }, 90_000);
});
