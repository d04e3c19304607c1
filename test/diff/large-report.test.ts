import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffCommand, MAX_DIFF_KEPT_BYTES } from '../../src/cli/commands/diff.ts';
import { EXIT_CODE_OF_ERROR, EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { ClockcheckError } from '../../src/errors.ts';
import { MAX_JSON_DEPTH } from '../../src/input/_internals/json-containers.ts';
import { DEV_BIN, runClockcheck, runMeasured } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'clockcheck-diff-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = { PATH: process.env.PATH, NO_COLOR: '1' };
const MIB = 1024 * 1024;

/** An exchange as a report keeps it: a response body of JSON in a string, its quotes escaped. */
function exchange(id: number): object {
  const items = Array.from({ length: 12 }, (_, i) => ({ id: id * 100 + i, first_name: 'Ada', last_name: 'Lovelace', email: `ada${i}@example.com`, note: 'é—✓ "quoted" \\ text' }));
  return {
    id,
    startedAt: '2026-11-25T21:14:34.058Z',
    durationMs: 22.794,
    request: { method: 'GET', url: `https://127.0.0.1:9441/api/public/users?page=${id}`, headers: { accept: 'application/json', authorization: '[REDACTED]' } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items }), bodyBytes: 2000, bodyTruncated: false },
  };
}

/**
 * Writes a report.json of about `megabytes` as a run writes one (two-space indentation), check by
 * check so the test never holds it: checks of 20 exchanges each, all passed but `failing`.
 */
function writeReport(path: string, megabytes: number, failing: ReadonlySet<number> = new Set()): void {
  const head = { schemaVersion: '2.0.0', runId: 'run', startedAt: '2026-11-25T00:00:00.000Z', tool: { version: '0.1.0' }, spec: { sha256: 'a'.repeat(64) }, target: { baseUrl: 'https://api.example.com', tlsFingerprint256: null, embedded: false } };
  const tail = { coverage: [{ rule: { id: 'USR-LIST' }, outcome: 'judged' }], summary: { rulesCovered: 1 } };
  const fd = openSync(path, 'w');
  writeSync(fd, `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "checks": [`);
  const exchanges = JSON.stringify(Array.from({ length: 20 }, (_, i) => exchange(i)), null, 2);
  let written = 0;
  for (let i = 0; written < megabytes * MIB; i++) {
    const bad = failing.has(i);
    const check = { id: `users/list-${i}`, title: `GET /users, page ${i}`, rules: ['USR-LIST'], status: bad ? 'failed' : 'passed', findings: bad ? [{ ruleId: 'USR-LIST', expected: 'a list', actual: 'none', exchangeIds: [1] }] : [] };
    const text = `${i === 0 ? '' : ','}\n${JSON.stringify(check, null, 2).slice(0, -2)},\n  "exchanges": ${exchanges}\n}`;
    writeSync(fd, text);
    written += text.length;
  }
  writeSync(fd, `\n  ],\n${JSON.stringify(tail, null, 2).slice(2)}\n`);
  closeSync(fd);
}

/** What `diff` throws for OLD = `path` (NEW a good report), as the CLI would print it. */
async function refusal(path: string): Promise<{ exit: number; message: string }> {
  const error = await diffCommand([path, good]).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClockcheckError);
  const known = error as ClockcheckError;
  return { exit: EXIT_CODE_OF_ERROR[known.code], message: known.message };
}

const good = join(dir, 'good.json');
const HINT = 'give the report.json a clockcheck run wrote, or the run directory that holds it';

describe('clockcheck diff of reports of any size', () => {
  beforeAll(() => writeReport(good, 0.1));

  it('diffs two 60 MB reports as a stream: the regression found, memory as for a small one', async () => {
    const [old, next] = [join(dir, 'old.json'), join(dir, 'new.json')];
    writeReport(old, 60);
    writeReport(next, 60, new Set([7]));
    const result = await runMeasured(process.execPath, [DEV_BIN, 'diff', old, next], ENV, 60_000);
    expect(result.code, result.stderr).toBe(EXIT_CODES.failed);
    expect(result.stdout).toMatch(/^NEW FAILURE {2}users\/list-7 +passed -> failed {2}USR-LIST$/m);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('REGRESSED  1 new failure(s), 0 still failing, 0 fixed, 0 no longer run (1 regression(s))');
    // Reading each file whole took about 330 MB here (its text, then its objects); streamed, the
    // process stays near its size with no report at all (about 110 MB under tsx).
    if (result.peakRssBytes > 0) expect(result.peakRssBytes / MIB).toBeLessThan(200);
  });

  it('refuses a report cut short, one line naming the file and where, exit 2, no stack', async () => {
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, '{"schemaVersion": "2.0.0", "checks": [{"id": "users/list-1", "title": "GET /us');
    const result = await runClockcheck(['diff', cut, good], ENV);
    expect(result.code).toBe(EXIT_CODES.usage);
    expect(result.stderr).toBe(`clockcheck: diff: ${cut} is not JSON: cut short at byte 78, inside a string; ${HINT}\n`);
  });

  it.each<[string, () => string, RegExp]>([
    ['garbage', () => file('garbage.json', Buffer.from([0x00, 0xff, 0x7b])), /garbage\.json is not JSON: unexpected byte 0x00 at byte 0; give/],
    ['an empty file', () => file('empty.json', ''), /empty\.json is not JSON: empty; give/],
    ['JSON that is not a report', () => file('other.json', '{"hello": [1, 2]}'), /other\.json is not a clockcheck report\.json \(schemaVersion: Invalid input: expected string, received undefined\); give/],
    ['an array', () => file('array.json', '[]'), /array\.json is not a clockcheck report\.json \(its top level: Invalid input: expected object, received array\); give/],
    ['a check of the wrong form', () => file('bad-check.json', JSON.stringify({ ...JSON.parse(goodText()), checks: [{ id: 'x', status: 'exploded' }] })), /bad-check\.json is not a clockcheck report\.json \(checks\.0\.title: .*\); give/],
    ['nesting past the bound', () => file('deep.json', `{"checks": ${'['.repeat(MAX_JSON_DEPTH + 10)}`), new RegExp(`deep\\.json is not JSON: it nests deeper than ${MAX_JSON_DEPTH} levels at byte ${MAX_JSON_DEPTH + 10}; give`)],
    ['a directory without a report.json', () => mkdirSync(join(dir, 'run-dir'), { recursive: true }) ?? join(dir, 'run-dir'), /no report at .*run-dir: a directory without a report\.json; give/],
    ['a missing file', () => join(dir, 'missing.json'), /no report at .*missing\.json; give/],
  ])('refuses %s with exit 2, the file named and a suggestion', async (_, make, message) => {
    const { exit, message: text } = await refusal(make());
    expect(exit).toBe(EXIT_CODES.usage);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it(`refuses a report whose parts the diff reads pass ${MAX_DIFF_KEPT_BYTES / MIB} MiB, before holding them`, async () => {
    const titles = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, title: 't'.repeat(MIB), status: 'passed', rules: [], findings: [] }));
    const huge = file('huge-titles.json', JSON.stringify({ ...JSON.parse(goodText()), checks: titles }));
    const { exit, message } = await refusal(huge);
    expect(exit).toBe(EXIT_CODES.usage);
    expect(message).toMatch(new RegExp(`huge-titles\\.json is not a clockcheck report\\.json: the parts diff reads of it pass ${MAX_DIFF_KEPT_BYTES / MIB} MiB at byte \\d+; give`));
  });
});

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function goodText(): string {
  return JSON.stringify({ schemaVersion: '2.0.0', runId: 'run', startedAt: '2026-11-25T00:00:00.000Z', tool: { version: '0.1.0' }, spec: { sha256: 'a'.repeat(64) }, target: { baseUrl: 'https://api.example.com', tlsFingerprint256: null, embedded: false }, checks: [], coverage: [], summary: { rulesCovered: 0 } });
}
