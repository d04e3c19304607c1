import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { runClockcheck } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'clockcheck-suite-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** No token and no target: the embedded server would be the target, but the suite stops the run first. */
const ENV = { PATH: process.env.PATH, NO_COLOR: '1' };

/** A suite whose one scenario, demo/bad, runs `step` (YAML lines from line 8). */
function suiteFile(name: string, ...step: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, ['suite: demo', 'description: d', 'scenarios:', '  - id: bad', '    title: a malformed step', '    rules: [PAG-WALK]', '    steps:', ...step, ''].join('\n'));
  return path;
}

describe('clockcheck run with a suite whose check or template arguments are wrong', () => {
  it('exits 2 with one line naming the file and line, before the run, without a stack trace', async () => {
    const cases = [
      { file: suiteFile('bad-arg.yaml', '      - check: pagination-walk', '        args:', '          path: /breaks', '          page_size: many'), line: 11, says: 'args.page_size: Invalid input: expected number, received string' },
      { file: suiteFile('bad-template.yaml', "      - request: { method: GET, path: \"/breaks?from={{ jan(1, '25:00') }}\" }"), line: 8, says: "jan() argument 2 (time): expected a time 'HH:mm' from 00:00 to 23:59, got '25:00'" },
    ];
    const results = await Promise.all(cases.map((c) => runClockcheck(['run', '--suite', c.file, '--only', 'demo/bad'], ENV)));
    results.forEach((result, i) => {
      const { file, line, says } = cases[i]!;
      expect(result.code, result.stderr).toBe(EXIT_CODES.usage);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^clockcheck: \\S*${file.split('/').at(-1)!.replace('.', '\\.')}:${line}: `));
      expect(lines[0]).toContain(says);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr).not.toMatch(/internal error/i);
      expect(result.stdout).toBe('');
    });
  });
});
