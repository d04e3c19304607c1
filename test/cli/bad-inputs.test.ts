import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main, reportError } from '../../src/cli/main.ts';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { DEV_BIN, runClockcheck, runProcess, type CliResult } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'clockcheck-bad-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** An environment with no token: none of these commands may get as far as needing one. */
const ENV = { PATH: process.env.PATH, NO_COLOR: '1' };

/** What every mistake of the user gets: exit 2, a line that names the place, no stack, no "internal error". */
function expectNamedMistake(result: CliResult, place: RegExp): void {
  expect(result.code, result.stderr).toBe(EXIT_CODES.usage);
  expect(result.stderr).toMatch(place);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toMatch(/internal error|TypeError|RangeError|SyntaxError:/);
  expect(result.stderr.trim().split('\n').filter((line) => line.startsWith('clockcheck:'))).toHaveLength(1);
}

const SCENARIO = `scenarios:
  - id: users/one
    title: one request
    rules: [USR-CREATE-REQUIRED]
    steps:
      - request: { method: GET, path: /users }
        expect: { status: success }
`;

describe('a mistake in any input is named, never a stack trace', () => {
  it.concurrent('an unknown flag names the flag', async () => {
    expectNamedMistake(await runClockcheck(['run', '--bugdet', '5', '--plan'], ENV), /--bugdet/);
  });

  it.concurrent('a flag value of the wrong kind names the flag and the form', async () => {
    expectNamedMistake(await runClockcheck(['run', '--budget', 'many', '--plan'], ENV), /--budget/);
  });

  it.concurrent('a rate limit not of the form LIMIT/WINDOW names the flag and the form', async () => {
    expectNamedMistake(await runClockcheck(['run', '--rate-limit', '60', '--plan'], ENV), /60\/60s/);
  });

  it.concurrent('a --budget that leaves the selected property families no case is a mistake, not a green run that judged nothing', async () => {
    expectNamedMistake(await runClockcheck(['run', '--only', 'properties', '--budget', '0', '--plan'], ENV), /--budget 0 leaves no generated case for the \d+ property families selected/);
  });

  it.concurrent('an unknown command names the command', async () => {
    expectNamedMistake(await runClockcheck(['certify'], ENV), /unknown command "certify"/);
  });

  it.concurrent('a profile that is not YAML names its file and line', async () => {
    const profile = file('broken.yaml', 'rate_limit:\n  limit: 60\n  window: [60s\n');
    expectNamedMistake(await runClockcheck(['run', '--profile', profile, '--plan'], ENV), /broken\.yaml:\d+/);
  });

  it.concurrent('a misspelt profile key names its file, line and the key it meant', async () => {
    const profile = file('typo.yaml', 'company_timezone: America/Chicago\nfixturez:\n  job_id: 1\n');
    expectNamedMistake(await runClockcheck(['run', '--profile', profile, '--plan'], ENV), /typo\.yaml:2: fixturez: .*did you mean "fixtures"/);
  });

  it.concurrent('a profile file that does not exist is named', async () => {
    expectNamedMistake(await runClockcheck(['run', '--profile', join(dir, 'absent.yaml'), '--plan'], ENV), /cannot read .*absent\.yaml/);
  });

  it.concurrent('a suite with an unknown key names its file and line', async () => {
    const suite = file('suite.yaml', SCENARIO.replace('    title: one request', '    titel: one request'));
    expectNamedMistake(await runClockcheck(['run', '--suite', suite, '--plan'], ENV), /suite\.yaml:3: .*titel.*did you mean "title"/);
  });

  it.concurrent('a regressions.yaml cut short names its file and line', async () => {
    const runDir = join(dir, 'run-1');
    mkdirSync(runDir, { recursive: true });
    const regressions = join(runDir, 'regressions.yaml');
    writeFileSync(regressions, `${SCENARIO}  - id: regressions/cut\n    steps: [\n`);
    expectNamedMistake(await runClockcheck(['run', '--suite', regressions, '--only', 'regressions', '--plan'], ENV), /regressions\.yaml:\d+/);
  });

  it.concurrent('a YAML alias bomb in a profile or a suite is named at its line, not expanded', async () => {
    const bomb = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]', ...'bcdefghij'.split('').map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(', ')}]`)].join('\n');
    expectNamedMistake(await runClockcheck(['run', '--profile', file('bomb-profile.yaml', `${bomb}\n`), '--plan'], ENV), /bomb-profile\.yaml:2: its aliases expand past 100 \(an alias bomb\?\)/);
    expectNamedMistake(await runClockcheck(['run', '--suite', file('bomb-suite.yaml', `${bomb}\nscenarios: []\n`), '--plan'], ENV), /bomb-suite\.yaml:2: its aliases expand past 100/);
  });

  it('a device or a pipe given as a profile or a PEM file is read only up to its limit: one line, exit 2', async () => {
    // In process: each fails before anything starts, and a child process each would cost a second.
    const lines: string[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    const token = process.env.CLOCKCHECK_TOKEN;
    process.env.CLOCKCHECK_TOKEN = 'tok-x';
    const inProcess = async (argv: string[]): Promise<CliResult> => {
      lines.length = 0;
      const code = await main(argv);
      return { code, stdout: '', stderr: lines.map((line) => `${line}\n`).join('') };
    };
    try {
      expectNamedMistake(await inProcess(['run', '--profile', '/dev/zero', '--plan']), /\/dev\/zero:1: is over 1\.0 MiB; a profile is at most that/);
      expectNamedMistake(await inProcess(['load', '--target', 'https://127.0.0.1:9', '--ca', '/dev/zero', '--duration', '1']), /\/dev\/zero: over 1 MiB, not a PEM file clockcheck can use/);
      expectNamedMistake(await inProcess(['serve', '--cert', '/dev/zero', '--key', '/dev/zero', '--port', '0']), /\/dev\/zero: over 1 MiB, not a PEM file/);
    } finally {
      errors.mockRestore();
      if (token === undefined) delete process.env.CLOCKCHECK_TOKEN;
      else process.env.CLOCKCHECK_TOKEN = token;
    }
  });

  it.concurrent('a profile or a suite too large to be one is refused before it is read, with the limit', async () => {
    const huge = `# ${'x'.repeat(1024)}\n`.repeat(4200);
    expectNamedMistake(await runClockcheck(['run', '--profile', file('huge-profile.yaml', huge), '--plan'], ENV), /huge-profile\.yaml:1: is 4\.1 MiB; a profile is at most 1\.0 MiB/);
    expectNamedMistake(await runClockcheck(['run', '--suite', file('huge-suite.yaml', `${huge}${huge}`), '--plan'], ENV), /huge-suite\.yaml:1: is 8\.2 MiB; a suite file is at most 4\.0 MiB/);
  });

  it.concurrent('a report for diff that is not a report names the file', async () => {
    const notReport = file('not-a-report.json', JSON.stringify({ hello: 'world' }));
    const notJson = file('not-json.json', '{"schemaVersion": ');
    expectNamedMistake(await runClockcheck(['diff', notReport, notJson], ENV), /not-a-report\.json|not-json\.json/);
    expectNamedMistake(await runClockcheck(['diff', notJson, notJson], ENV), /not-json\.json/);
  });

  it.concurrent('a report for diff that does not exist is named', async () => {
    expectNamedMistake(await runClockcheck(['diff', join(dir, 'a.json'), join(dir, 'b.json')], ENV), /a\.json/);
  });

  it.concurrent('a report for --last-failed that is not a report names the file', async () => {
    const notReport = file('last.json', '[]');
    expectNamedMistake(await runClockcheck(['run', '--last-failed', notReport, '--plan'], ENV), /last\.json/);
  });
});

describe("clockcheck's own bug", () => {
  it('is one line that says it is a bug, exit 70, and the stack only under CLOCKCHECK_DEBUG', () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    try {
      const debug = process.env.CLOCKCHECK_DEBUG;
      delete process.env.CLOCKCHECK_DEBUG;
      expect(reportError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(EXIT_CODES.internal);
      expect(lines[0]).toMatch(/^clockcheck: internal error \(a bug in clockcheck.*\): Cannot read properties of undefined/);
      expect(lines.join('\n')).not.toMatch(/^\s+at /m);
      lines.length = 0;
      process.env.CLOCKCHECK_DEBUG = '1';
      reportError(new TypeError('boom'));
      expect(lines.join('\n')).toMatch(/^\s+at /m);
      if (debug === undefined) delete process.env.CLOCKCHECK_DEBUG;
      else process.env.CLOCKCHECK_DEBUG = debug;
    } finally {
      spy.mockRestore();
    }
  });

  it('a file that cannot be read is the user\'s, not a bug: exit 2', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const error = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', path: '/nowhere/profile.yaml' });
      expect(reportError(error)).toBe(EXIT_CODES.usage);
      expect(spy.mock.calls[0]?.[0]).toBe('clockcheck: cannot read /nowhere/profile.yaml: no such file');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a reader that stops reading', () => {
  it('ends the command quietly, exit 0, as `clockcheck openapi | head` expects', async () => {
    // head reads one line and leaves; the OpenAPI document (over 100 KB) is still being written.
    const script = `"${process.execPath}" "${DEV_BIN}" openapi | head -1 >/dev/null; echo "exit \${PIPESTATUS[0]}" >&2`;
    const result = await runProcess('bash', ['--noprofile', '--norc', '-c', script], ENV);
    expect(result.stderr).not.toMatch(/clockcheck:/);
    expect(result.stderr.trim().split('\n').at(-1)).toBe('exit 0');
  });
});
