import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FamilyRequest, GeneratorContext } from '../../src/properties/family.ts';
import { formatOffsetDateTime, parseOffsetDateTime } from '../../src/contract/formats/index.ts';
import { REQUESTS, violatedRules } from '../properties/support.ts';
import { runClockcheck, runClockcheckHere, runProcess, type CliResult as Run } from '../support/cli.ts';


/** A command in the repository root with the test's environment plus `env`. */
const run = (command: string, args: readonly string[], env: Record<string, string> = {}) => runProcess(command, args, { ...process.env, ...env });

/** `clockcheck fuzz` in this process (the command, not the process, is what these tests are about). */
const fuzz = (...args: string[]) => runClockcheckHere(['fuzz', ...args]);
/** `clockcheck fuzz` as a process: its bytes on stdout and its exit code as a shell sees them. */
const fuzzProcess = (...args: string[]) => runClockcheck(['fuzz', ...args], process.env);

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
    const [a, b] = await Promise.all([fuzzProcess('user', '--seed', '7', '--count', '20'), fuzz('user', '--seed', '7', '--count', '20')]);
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

/** A user's server as a profile describes it: nothing in it is in the reference seed. */
const PROFILE_YAML = `target: https://time.example.test
company_timezone: America/Chicago
tls: { ca: /etc/ssl/time-example-ca.pem }
fixtures:
  active_user_ids: [41, 42]
  job_id: 7
  task_id: 8
  break_rule_id: 9
  timesheet: { id: 99, start: "2030-03-04T08:00:00-06:00", end: "2030-03-04T18:00:00-06:00" }
`;

const PROFILE_CONTEXT: GeneratorContext = {
  companyTimezone: 'America/Chicago',
  activeUserIds: [41, 42],
  jobId: 7,
  taskId: 8,
  breakRuleId: 9,
  timesheet: { id: 99, start: '2030-03-04T08:00:00-06:00', end: '2030-03-04T18:00:00-06:00' },
  uniqueTag: 'fuzz',
};

/** Every ID a payload names is one of the profile's fixtures (absent ones are a rule's business). */
function expectOnlyProfileIds(item: Item): void {
  const p = item.payload;
  const users = [p.assigned_by, p.user_id, ...((p.user_ids as unknown[] | undefined) ?? [])].filter((id) => id !== undefined);
  for (const id of users) expect([41, 42], item.label).toContain(id);
  const fixed: Record<string, number> = { job_id: 7, task_id: 8, timesheet_id: 99, break_rule_id: 9 };
  for (const [field, id] of Object.entries(fixed)) if (p[field] !== undefined) expect(p[field], `${item.label}: ${field}`).toBe(id);
}

describe('clockcheck fuzz --profile', () => {
  let dir: string;
  /** Writes a profile into the test's folder; returns its path. */
  const profile = async (name: string, yaml: string) => {
    const file = join(dir, name);
    await writeFile(file, yaml);
    return file;
  };
  let full: string;
  let empty: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-fuzz-'));
    full = await profile('server.yaml', PROFILE_YAML);
    empty = await profile('empty.yaml', 'company_timezone: America/Chicago\n');
  });

  describe('generates for the profile\'s fixtures, and the spec model agrees with every label', () => {
    const results: Record<string, Run> = {};
    const subjects: Record<string, { request: FamilyRequest; args: string[] }> = {
      ...Object.fromEntries(Object.entries(OPERATIONS).map(([name, request]) => [name, { request, args: request.method === 'PUT' ? ['--id', '5'] : [] }])),
      'break-create': { request: REQUESTS.break, args: [] },
      'schedule-conditionals': { request: REQUESTS.scheduleCreate, args: [] },
      'timesheet-offsets': { request: REQUESTS.timesheet, args: [] },
    };
    beforeAll(async () => {
      const names = Object.keys(subjects);
      const runs = await Promise.all(names.map((name) => fuzz(name, '--profile', full, '--seed', '11', '--count', '60', '--format', 'jsonl', ...subjects[name]!.args)));
      names.forEach((name, i) => (results[name] = runs[i]!));
    });

    for (const [name, { request }] of Object.entries(subjects)) {
      it(`${name}: only the profile's IDs; valid cases break nothing, invalid ones exactly their rule`, () => {
        const result = results[name]!;
        expect(result.code, result.stderr).toBe(0);
        const items = jsonl(result.stdout);
        expect(items).toHaveLength(60);
        expect(items.some((i) => !i.breaks)).toBe(true);
        for (const item of items) {
          expectOnlyProfileIds(item);
          // timesheets: offsets against America/Chicago; breaks: inside timesheet 99 (support.ts)
          const found = [...violatedRules(request, item.payload, PROFILE_CONTEXT)];
          expect(found, `${item.label}: ${JSON.stringify(item.payload)}`).toEqual(item.breaks ? [item.breaks] : []);
        }
      });
    }

    it('schedules and timesheets use both active users, and breaks lie inside timesheet 99', () => {
      const schedules = jsonl(results.schedule!.stdout);
      expect(new Set(schedules.map((i) => i.payload.assigned_by).filter((id) => id !== undefined))).toEqual(new Set([41, 42]));
      expect(new Set(jsonl(results.timesheet!.stdout).map((i) => i.payload.user_id).filter((id) => id !== undefined))).toEqual(new Set([41, 42]));
      const millis = (v: unknown) => parseOffsetDateTime(String(v))!.dateTime.toMillis();
      const [from, to] = [millis(PROFILE_CONTEXT.timesheet!.start), millis(PROFILE_CONTEXT.timesheet!.end)];
      const valid = jsonl(results.break!.stdout).filter((i) => !i.breaks);
      expect(valid.length).toBeGreaterThan(10);
      for (const { payload: p } of valid) {
        expect(p).toMatchObject({ timesheet_id: 99, break_rule_id: 9 });
        expect(millis(p.start)).toBeGreaterThanOrEqual(from);
        expect(millis(p.end)).toBeLessThanOrEqual(to);
        expect(millis(p.end)).toBeGreaterThan(millis(p.start));
      }
    });
  });

  it('writes timesheet offsets in the profile\'s company_timezone, and --timezone overrides it', async () => {
    const kolkata = await profile('kolkata.yaml', PROFILE_YAML.replace('America/Chicago', 'Asia/Kolkata'));
    const [own, overridden] = await Promise.all([
      fuzz('timesheet', '--valid', '--profile', kolkata, '--seed', '3', '--count', '40', '--format', 'jsonl'),
      fuzz('break', '--valid', '--profile', full, '--timezone', 'UTC', '--seed', '3', '--count', '5', '--format', 'jsonl'),
    ]);
    expect(own.code, own.stderr).toBe(0);
    const defaulted = jsonl(own.stdout).filter((i) => i.payload.clock_in_timezone === undefined);
    expect(defaulted.length).toBeGreaterThan(0);
    for (const item of defaulted) expect(String(item.payload.start), item.label).toMatch(/\+05:30$/);
    expect(overridden.code, overridden.stderr).toBe(0);
    for (const item of jsonl(overridden.stdout)) expect(String(item.payload.start)).toMatch(/\+00:00$/);
  });

  it('prints the same bytes for the same seed', async () => {
    const [a, b] = await Promise.all([
      fuzz('break', '--profile', full, '--seed', '9', '--count', '30'),
      fuzz('break', '--profile', full, '--seed', '9', '--count', '30'),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(1000);
    expect(Buffer.from(a.stdout).equals(Buffer.from(b.stdout))).toBe(true);
  });

  it('sends curl to the profile\'s target with its CA; --target and --ca (or --cacert) win', async () => {
    const [own, target, ca, cacert] = await Promise.all([
      fuzz('schedule', '--profile', full, '--seed', '1', '--count', '3', '--format', 'curl'),
      fuzz('schedule', '--profile', full, '--seed', '1', '--count', '3', '--format', 'curl', '--target', 'https://other.example.test:9443'),
      fuzz('schedule', '--profile', full, '--seed', '1', '--count', '3', '--format', 'curl', '--ca', '/tmp/mine.pem'),
      fuzz('schedule', '--profile', full, '--seed', '1', '--count', '3', '--format', 'curl', '--cacert', '/tmp/mine.pem'),
    ]);
    for (const result of [own, target, ca, cacert]) expect(result.code, result.stderr).toBe(0);
    expect(own.stdout.match(/'https:\/\/time\.example\.test\/api\/public\/schedules'/g)).toHaveLength(3);
    expect(own.stdout.match(/--cacert '\/etc\/ssl\/time-example-ca\.pem'/g)).toHaveLength(3);
    expect(own.stdout).not.toContain('127.0.0.1');
    expect(target.stdout.match(/'https:\/\/other\.example\.test:9443\/api\/public\/schedules'/g)).toHaveLength(3);
    expect(ca.stdout.match(/--cacert '\/tmp\/mine\.pem'/g)).toHaveLength(3);
    expect(ca.stdout).not.toContain('time-example-ca.pem');
    expect(cacert.stdout).toBe(ca.stdout);
  });

  it('makes curl insecure when the profile says tls.insecure and names no CA, and keeps its api_prefix', async () => {
    const insecure = await profile('insecure.yaml', 'target: https://dev.example.test\napi_prefix: /v1/public\ntls: { insecure: true }\n');
    const result = await fuzz('user', '--profile', insecure, '--seed', '1', '--count', '2', '--format', 'curl');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.match(/^curl -sS -i -k \\$/gm)).toHaveLength(2);
    expect(result.stdout).toContain("'https://dev.example.test/v1/public/users'");
  });

  it('puts --id into the URL of updates, and has no default for it with a profile', async () => {
    const [edit, update, family, given] = await Promise.all([
      fuzz('user-edit', '--profile', full),
      fuzz('schedule-update', '--profile', full, '--format', 'curl'),
      fuzz('user-edit', '--profile', empty, '--valid'),
      fuzz('user-edit', '--profile', full, '--id', '77', '--seed', '1', '--count', '1', '--format', 'curl'),
    ]);
    for (const result of [edit, update, family]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/--id/);
    }
    expect(edit.stderr).toContain('fuzz: user-edit changes the user given by --id');
    expect(update.stderr).toContain('fuzz: schedule-update changes the schedule given by --id');
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain("'https://time.example.test/api/public/users/77'");
  });

  it('exits 2 with one line naming the fixture a payload needs and the profile lacks', async () => {
    const noRule = await profile('no-rule.yaml', PROFILE_YAML.replace('  break_rule_id: 9\n', ''));
    const [breaks, rule, schedules, timesheets, family, users] = await Promise.all([
      fuzz('break', '--profile', empty),
      fuzz('break', '--profile', noRule),
      fuzz('schedule', '--profile', empty),
      fuzz('timesheet', '--profile', empty),
      fuzz('schedule-dates', '--profile', empty),
      fuzz('user', '--profile', empty, '--count', '3', '--format', 'jsonl'),
    ]);
    const expectations: Array<[Run, string]> = [
      [breaks, 'fuzz: break payloads need fixtures.timesheet'],
      [rule, 'fuzz: break payloads need fixtures.break_rule_id'],
      [schedules, 'fuzz: schedule payloads need fixtures.active_user_ids'],
      [timesheets, 'fuzz: timesheet payloads need fixtures.active_user_ids'],
      [family, 'fuzz: schedule-dates payloads need fixtures.active_user_ids'],
    ];
    for (const [result, message] of expectations) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('`clockcheck init`');
    }
    // user payloads name no fixture: a profile without any is enough
    expect(users.code, users.stderr).toBe(0);
    expect(jsonl(users.stdout)).toHaveLength(3);
  });
});

describe('clockcheck fuzz --ca', () => {
  it('is the CA curl trusts, --cacert the same; two different files are a usage error', async () => {
    const [ca, cacert, same, both] = await Promise.all([
      fuzz('user', '--seed', '2', '--count', '2', '--format', 'curl', '--ca', '/tmp/ca.pem'),
      fuzz('user', '--seed', '2', '--count', '2', '--format', 'curl', '--cacert', '/tmp/ca.pem'),
      fuzz('user', '--seed', '2', '--count', '2', '--format', 'curl', '--ca', '/tmp/ca.pem', '--cacert', '/tmp/ca.pem'),
      fuzz('user', '--format', 'curl', '--ca', '/tmp/ca.pem', '--cacert', '/tmp/other.pem'),
    ]);
    expect(ca.code, ca.stderr).toBe(0);
    expect(ca.stdout.match(/--cacert '\/tmp\/ca\.pem'/g)).toHaveLength(2);
    expect(cacert.stdout).toBe(ca.stdout);
    expect(same.stdout).toBe(ca.stdout);
    expect(both.code).toBe(2);
    expect(both.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(both.stderr).toMatch(/--ca and --cacert/);
  });

  it('documents --profile, --ca and the reference seed in --help', async () => {
    const help = await fuzz('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--profile FILE');
    expect(help.stdout).toContain('--ca FILE');
    expect(help.stdout).toContain('--cacert');
    expect(help.stdout).toContain("Without --profile the context is the reference server's seed");
  });
});
