import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FamilyRequest, GeneratorContext } from '../../src/properties/family.ts';
import { formatOffsetDateTime } from '../../src/spec/formats/index.ts';
import { REQUESTS, violatedRules } from '../properties/support.ts';
import { runClockcheck, runProcess, type CliResult as Run } from '../support/cli.ts';


/** A command in the repository root with the test's environment plus `env`. */
const run = (command: string, args: readonly string[], env: Record<string, string> = {}) => runProcess(command, args, { ...process.env, ...env });

const fuzz = (...args: string[]) => runClockcheck(['fuzz', ...args], process.env);

interface Item {
  readonly label: string;
  readonly breaks?: string;
  readonly payload: Record<string, unknown>;
}

const jsonl = (out: string): Item[] => out.trimEnd().split('\n').map((line) => JSON.parse(line) as Item);

/** The context fuzz generates in: the reference server's seed, company timezone America/Chicago. */
const start = DateTime.fromObject({ year: 2026, month: 10, day: 1, hour: 9 }, { zone: 'America/Chicago' });
const FUZZ_CONTEXT: GeneratorContext = {
  companyTimezone: 'America/Chicago',
  activeUserIds: [1, 2, 3],
  jobId: 1,
  taskId: 1,
  breakRuleId: 1,
  timesheet: { id: 1, start: formatOffsetDateTime(start), end: formatOffsetDateTime(start.set({ hour: 17 })) },
  uniqueTag: 'fuzz',
};

const OPERATIONS: Record<string, FamilyRequest> = {
  schedule: REQUESTS.scheduleCreate,
  'schedule-update': REQUESTS.scheduleUpdate,
  user: REQUESTS.userCreate,
  'user-edit': REQUESTS.userEdit,
  timesheet: REQUESTS.timesheet,
  break: REQUESTS.break,
};

describe('clockcheck fuzz', () => {
  it('prints the same bytes for the same seed, and says the seed on stderr', async () => {
    const [a, b] = await Promise.all([fuzz('user', '--seed', '7', '--count', '20'), fuzz('user', '--seed', '7', '--count', '20')]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(1000);
    expect(Buffer.from(a.stdout).equals(Buffer.from(b.stdout))).toBe(true);
    expect(a.stderr.trim()).toBe('seed 7');
  });

  it('draws a random seed by default, prints it, and prints 10 cases', async () => {
    const result = await fuzz('break', '--format', 'jsonl');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim()).toMatch(/^seed \d+$/);
    expect(jsonl(result.stdout)).toHaveLength(10);
  });

  describe('labels every case with the rule it breaks, which the spec model confirms', () => {
    const results: Record<string, Run> = {};
    beforeAll(async () => {
      const names = Object.keys(OPERATIONS);
      const runs = await Promise.all(names.map((name) => fuzz(name, '--seed', '11', '--count', '60', '--format', 'jsonl')));
      names.forEach((name, i) => (results[name] = runs[i]!));
    });

    for (const [name, request] of Object.entries(OPERATIONS)) {
      it(`${name}: valid cases break nothing, invalid ones exactly their rule`, () => {
        const result = results[name]!;
        expect(result.code, result.stderr).toBe(0);
        const items = jsonl(result.stdout);
        expect(items).toHaveLength(60);
        expect(items.some((i) => i.breaks)).toBe(true);
        expect(items.some((i) => !i.breaks)).toBe(true);
        for (const item of items) {
          expect(item.label.length).toBeGreaterThan(5);
          const found = [...violatedRules(request, item.payload, FUZZ_CONTEXT)];
          expect(found, `${item.label}: ${JSON.stringify(item.payload)}`).toEqual(item.breaks ? [item.breaks] : []);
        }
      });
    }
  });

  it('prints json as one array of {label, breaks?, payload}', async () => {
    const result = await fuzz('schedule', '--seed', '3', '--count', '12', '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const items = JSON.parse(result.stdout) as Item[];
    expect(Array.isArray(items)).toBe(true);
    expect(items).toHaveLength(12);
    for (const item of items) {
      expect(Object.keys(item).filter((k) => k !== 'breaks')).toEqual(['label', 'payload']);
      expect(typeof item.payload).toBe('object');
    }
  });

  it('prints jsonl with the same cases as json, one object a line', async () => {
    const [json, lines] = await Promise.all([
      fuzz('timesheet', '--seed', '5', '--count', '8', '--format', 'json'),
      fuzz('timesheet', '--seed', '5', '--count', '8', '--format', 'jsonl'),
    ]);
    expect(lines.stdout.trimEnd().split('\n')).toHaveLength(8);
    expect(jsonl(lines.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it('prints curl commands that send each payload with $CLOCKCHECK_TOKEN, properly quoted', async () => {
    const [curl, lines] = await Promise.all([
      fuzz('user', '--seed', '7', '--count', '20', '--format', 'curl'),
      fuzz('user', '--seed', '7', '--count', '20', '--format', 'jsonl'),
    ]);
    expect(curl.code, curl.stderr).toBe(0);
    const items = jsonl(lines.stdout);
    const comments = curl.stdout.split('\n').filter((l) => l.startsWith('# '));
    expect(comments).toEqual(items.map((i) => `# ${i.label}${i.breaks ? ` (breaks ${i.breaks})` : ''}`));
    expect(curl.stdout.match(/-H "Authorization: \$CLOCKCHECK_TOKEN"/g)).toHaveLength(20);
    expect(curl.stdout.match(/Authorization/g)).toHaveLength(20);
    expect(curl.stdout).not.toContain('[REDACTED]');
    expect(curl.stdout.match(/-H 'Content-Type: application\/json'/g)).toHaveLength(20);
    expect(items.some((i) => JSON.stringify(i.payload).includes("'"))).toBe(true); // O'Brien, D'Arcy: quoting is exercised
    // Run the commands with a curl that prints its arguments: the shell must hand over each payload intact.
    const script = `curl() { printf '%s\\0' "$@"; printf '\\n--end--\\0'; }\n${curl.stdout}`;
    const shell = await run('bash', ['-c', script], { CLOCKCHECK_TOKEN: 'tok-123' });
    expect(shell.code, shell.stderr).toBe(0);
    const calls = shell.stdout.split('\n--end--\0').filter((c) => c.length > 0).map((c) => c.split('\0').filter((a) => a !== ''));
    expect(calls).toHaveLength(20);
    calls.forEach((args, i) => {
      expect(args).toContain('https://127.0.0.1:8443/api/public/users');
      expect(args).toContain('Authorization: tok-123');
      expect(JSON.parse(args[args.indexOf('--data-raw') + 1]!)).toEqual(items[i]!.payload);
    });
  });

  it('puts --target, the API prefix and --id in the URL, and PUT for updates', async () => {
    const result = await fuzz('schedule-update', '--seed', '1', '--count', '2', '--format', 'curl', '--target', 'https://api.example.test/base/', '--id', '42');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("'https://api.example.test/base/api/public/schedules/42'");
    expect(result.stdout).toContain('-X PUT');
  });

  it('keeps to one rule with --invalid RULE, to valid cases with --valid, for operations and families', async () => {
    const [code, valid, family] = await Promise.all([
      fuzz('user', '--invalid', 'USR-EMPLOYEE-CODE', '--count', '15', '--seed', '3', '--format', 'jsonl'),
      fuzz('timesheet', '--valid', '--count', '15', '--seed', '3', '--format', 'jsonl'),
      fuzz('timesheet-offsets', '--invalid', 'TS-OFFSET-DEFAULT-TIMEZONE', '--count', '10', '--seed', '3', '--format', 'jsonl'),
    ]);
    expect(jsonl(code.stdout).map((i) => i.breaks)).toEqual(Array(15).fill('USR-EMPLOYEE-CODE'));
    expect(jsonl(valid.stdout).every((i) => i.breaks === undefined)).toBe(true);
    expect(jsonl(family.stdout).map((i) => i.breaks)).toEqual(Array(10).fill('TS-OFFSET-DEFAULT-TIMEZONE'));
    const invalid = await fuzz('--invalid', 'break', '--count', '6', '--format', 'jsonl');
    expect(jsonl(invalid.stdout).every((i) => i.breaks !== undefined)).toBe(true);
  });

  it('exits 2 with a "did you mean" for a rule the operation cannot break', async () => {
    const [typo, other, family, edit] = await Promise.all([
      fuzz('user', '--invalid', 'USR-EMPLOYE-CODE'),
      fuzz('user', '--invalid', 'TS-CREATE-REQUIRED'),
      fuzz('schedule-update', '--invalid=SCH-UPDATE-CONDITIONAL'),
      fuzz('user-edit', '--invalid', 'USR-CREATE-REQUIRED'),
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('did you mean "USR-EMPLOYEE-CODE"?');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/cannot break "TS-CREATE-REQUIRED".*can break: USR-PASSWORD-LENGTH/);
    expect(family.code).toBe(2);
    expect(family.stderr).toContain('did you mean "SCH-UPDATE-CONDITIONALS"?');
    expect(edit.code).toBe(2);
    expect(edit.stderr).toMatch(/user-edit cases cannot break "USR-CREATE-REQUIRED"/);
  });

  it('exits 2 on an unknown operation, a bad format or --valid with --invalid', async () => {
    const [unknown, format, both] = await Promise.all([
      fuzz('usr'),
      fuzz('user', '--format', 'xml'),
      fuzz('user', '--valid', '--invalid'),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "user"?');
    expect(format.code).toBe(2);
    expect(both.code).toBe(2);
  });
});
