import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.ts';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { loadSuites, type LoadedScenario } from '../../src/scenarios/loader.ts';
import { PROPERTY_FAMILIES } from '../../src/properties/families.ts';
import { RATE_LIMIT_CHECKS } from '../../src/ratelimit/rate-limit-checks.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import { planRun } from '../../src/plan/plan.ts';
import { RunError } from '../../src/needs/run-error.ts';
import { BUILTIN_CHECKS, resolveSelection, selectionNames, type Selectable, type Selection, type SelectionRequest } from '../../src/plan/selection.ts';
import type { PlanDocument } from '../../src/plan/plan-text.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT, runClockcheck } from '../support/cli.ts';

const SUITES = join(ROOT, 'suites');
const LISTS = '`clockcheck rules` lists the rule IDs, `clockcheck run --plan` the checks';

let scenarios: readonly LoadedScenario[];
let selectable: Selectable;

beforeAll(async () => {
  scenarios = await loadSuites(SUITES, '**/*.yaml', BUILTIN_CHECK_NAMES);
  selectable = { scenarios, families: PROPERTY_FAMILIES };
});

/** The check IDs a selection keeps, in run order: scenarios, families, built-in checks. */
function kept(selection: Selection, from: Selectable = selectable): string[] {
  return [
    ...from.scenarios.filter(selection.scenario).map((s) => s.id),
    ...from.families.filter(selection.family).map((f) => `properties/${f.name}`),
    ...Object.keys(BUILTIN_CHECKS).filter(selection.builtin),
  ];
}

/** The UsageError resolveSelection throws for `request`, as its message. */
function refusal(request: SelectionRequest, from: Selectable = selectable): string {
  try {
    resolveSelection(request, from);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`resolveSelection accepted ${JSON.stringify(request)}`);
}

/** A scenario of the shipped suites as a regressions.yaml would hold it. */
function asRegression(loaded: LoadedScenario): LoadedScenario {
  return { ...loaded, suite: 'regressions', id: `regressions/${loaded.scenario.id}` };
}

describe('the names a run can be narrowed by', () => {
  it('are the suites, the check IDs of every kind, and the rule IDs', () => {
    const names = selectionNames(selectable);
    for (const name of ['users', 'auth', 'rate-limit', 'properties', 'regressions', 'users/password-classes', 'properties/user-password', 'rate-limit/sliding', 'rate-limit/monitor', 'auth/token-form', 'HTTPS-ONLY']) {
      expect(names, name).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('each select what they name', () => {
    const only = (...names: string[]) => kept(resolveSelection({ only: names }, selectable));
    const usersIds = scenarios.filter((s) => s.suite === 'users').map((s) => s.id);
    expect(only('users')).toEqual(usersIds);
    expect(only('users/password-classes')).toEqual(['users/password-classes']);
    expect(only('HTTPS-ONLY')).toEqual(scenarios.filter((s) => s.scenario.rules.includes('HTTPS-ONLY')).map((s) => s.id));
    expect(only('HTTPS-ONLY').length).toBeGreaterThan(0);
    expect(only('AUTH-HEADER-RAW')).toContain('auth/token-form');
    expect(only('properties/user-password')).toEqual(['properties/user-password']);
    // Every property family, and the stateful one (properties/user-sequences).
    expect(only('properties')).toEqual([...PROPERTY_FAMILIES.map((f) => `properties/${f.name}`), 'properties/user-sequences']);
    expect(only('STORE-EDIT')).toEqual(['users/put-partial-keeps-optional-fields', 'records/read-back', 'properties/user-sequences']);
    expect(only('rate-limit/sliding')).toEqual(['rate-limit/sliding']);
    expect(only('rate-limit')).toEqual([...Object.keys(RATE_LIMIT_CHECKS), 'rate-limit/monitor']);
    expect(only('rate-limit/monitor')).toEqual(['rate-limit/monitor']);
    expect(only('auth/token-form')).toEqual(['auth/token-form']);
    expect(only('auth')).toEqual([...scenarios.filter((s) => s.suite === 'auth').map((s) => s.id), 'auth/token-form']);
    const withRegression = { ...selectable, scenarios: [...scenarios, asRegression(scenarios[0]!)] };
    expect(kept(resolveSelection({ only: ['regressions'] }, withRegression), withRegression)).toEqual([`regressions/${scenarios[0]!.scenario.id}`]);
  });

  it('with no --only and no --skip select every check', () => {
    expect(kept(resolveSelection({ only: [], skip: [] }, selectable))).toHaveLength(scenarios.length + PROPERTY_FAMILIES.length + Object.keys(BUILTIN_CHECKS).length);
  });
});

describe('a name the run does not have', () => {
  it('is refused in one line, with the did-you-mean the example shows', () => {
    expect(refusal({ only: ['authh'] })).toBe(`run: --only authh selects nothing (did you mean "auth"?); ${LISTS}`);
  });

  it.each([
    ['a suite', 'userz', 'users'],
    ['a rule ID', 'HTTPS-ONL', 'HTTPS-ONLY'],
    ['a rule ID in lower case', 'https-only', 'HTTPS-ONLY'],
    ['a scenario', 'users/password-clases', 'users/password-classes'],
    ['a property family', 'properties/user-pasword', 'properties/user-password'],
    ['all property families', 'propertes', 'properties'],
    ['a rate-limit check', 'rate-limit/slidng', 'rate-limit/sliding'],
    ['the rate-limit suite', 'ratelimit', 'rate-limit'],
    ['the monitor', 'rate-limit/monitr', 'rate-limit/monitor'],
    ['the token-form check', 'auth/token-from', 'auth/token-form'],
    ['regressions', 'regresions', 'regressions'],
  ])('a typo of %s (%s) gets "%s" suggested, in --only and in --skip', (_kind, typo, meant) => {
    expect(refusal({ only: [typo] })).toBe(`run: --only ${typo} selects nothing (did you mean "${meant}"?); ${LISTS}`);
    expect(refusal({ only: [], skip: [typo] })).toBe(`run: --skip ${typo} skips nothing (did you mean "${meant}"?); ${LISTS}`);
  });

  it('is named without a guess when nothing is near', () => {
    expect(refusal({ only: [], skip: ['bogus'] })).toBe(`run: --skip bogus skips nothing; ${LISTS}`);
  });

  it('names every unknown name in the one line, each with its own suggestion, the known ones not', () => {
    const message = refusal({ only: ['auth', 'authh', 'userz', 'zzzzzzzz'] });
    expect(message).toBe(`run: --only authh (did you mean "auth"?), userz (did you mean "users"?), zzzzzzzz select nothing; ${LISTS}`);
    expect(message).not.toContain('\n');
  });

  it('is a check the suites loaded do not have, even when another suite file has it', async () => {
    const authOnly = { scenarios: await loadSuites(SUITES, 'auth.yaml', BUILTIN_CHECK_NAMES), families: PROPERTY_FAMILIES };
    expect(refusal({ only: ['users/password-classes'] }, authOnly)).toMatch(/^run: --only users\/password-classes selects nothing/);
  });

  it('from --last-failed is named as the re-run report\'s', () => {
    expect(refusal({ only: ['auth', 'users/pasword-classes'], rerunOf: 'R1' })).toBe(
      'run: --last-failed: run R1 has checks this run does not: users/pasword-classes (did you mean "users/password-classes"?); load the suites it ran with --suite',
    );
  });
});

describe('--skip', () => {
  it('takes out, after --only, the checks its names select', () => {
    const authScenarios = scenarios.filter((s) => s.suite === 'auth');
    expect(kept(resolveSelection({ only: ['auth'], skip: ['auth/token-form'] }, selectable))).toEqual(authScenarios.map((s) => s.id));
    const withoutRule = kept(resolveSelection({ only: ['auth'], skip: ['AUTH-REQUIRED'] }, selectable));
    expect(withoutRule).toEqual([...authScenarios.filter((s) => !s.scenario.rules.includes('AUTH-REQUIRED')).map((s) => s.id), 'auth/token-form']);
    expect(withoutRule.length).toBeLessThan(authScenarios.length + 1);
  });

  it('without --only, takes its checks out of the whole run', () => {
    const all = kept(resolveSelection({ only: [] }, selectable));
    const rest = kept(resolveSelection({ only: [], skip: ['rate-limit', 'properties'] }, selectable));
    expect(rest).toEqual(all.filter((id) => !id.startsWith('rate-limit/') && !id.startsWith('properties/')));
  });

  it('that takes out all --only selects leaves nothing to run: refused in one line', () => {
    expect(refusal({ only: ['auth'], skip: ['auth'] })).toBe('run: --skip auth leaves nothing of --only auth to run; `clockcheck run --plan` lists the checks');
    expect(refusal({ only: ['auth/token-form'], skip: ['AUTH-HEADER-RAW'] })).toMatch(/^run: --skip AUTH-HEADER-RAW leaves nothing of --only auth\/token-form to run;/);
    const everything = [...new Set([...scenarios.map((s) => s.suite), 'properties', 'rate-limit', 'records', 'isolation'])];
    expect(refusal({ only: [], skip: everything })).toBe(`run: --skip ${everything.join(',')} leaves nothing to run; \`clockcheck run --plan\` lists the checks`);
  });
});

describe('a selection of known names with nothing in it', () => {
  it('is refused when --only names only what this run does not have', async () => {
    const authOnly = { scenarios: await loadSuites(SUITES, 'auth.yaml', BUILTIN_CHECK_NAMES), families: [] };
    expect(refusal({ only: ['USR-PASSWORD-CLASSES'] }, authOnly)).toBe(
      'run: --only USR-PASSWORD-CLASSES selects nothing: no check of the suites loaded, no property family and no built-in check has these names; `clockcheck run --plan` lists the checks',
    );
    expect(refusal({ only: ['regressions'] })).toBe(
      'run: --only regressions selects nothing: no regressions.yaml is loaded (run one with --suite PATH/regressions.yaml); `clockcheck run --plan` lists the checks',
    );
  });

  it('is not a selection whose checks are all planned skipped (--read-only): the plan keeps them, skipped with the reason', async () => {
    const mutating = scenarios.find((s) => s.scenario.mutates);
    expect(mutating).toBeDefined();
    const plan = await planRun({ profile: defaultProfile(), suitesDir: SUITES, suiteGlob: '**/*.yaml', only: [mutating!.id], budget: 0, readOnly: true });
    expect(plan.checks.find((c) => c.id === mutating!.id)?.skip).toMatch(/read-only/);
  });
});

describe('planRun', () => {
  const plan = (only: string[], skip: string[] = [], path?: string) =>
    planRun({ profile: defaultProfile(), suitesDir: SUITES, suiteGlob: '**/*.yaml', only, skip, budget: 20, ...(path ? { path } : {}) });

  it('validates the selection before it plans, and plans what --skip leaves', async () => {
    await expect(plan(['authh'])).rejects.toThrow(new UsageError(`run: --only authh selects nothing (did you mean "auth"?); ${LISTS}`));
    await expect(plan(['auth'], ['auth'])).rejects.toBeInstanceOf(UsageError);
    const planned = await plan(['auth', 'rate-limit'], ['auth/wrong-token-refused', 'rate-limit/sliding']);
    const ids = planned.checks.map((c) => c.id);
    expect(ids).toContain('auth/missing-token-refused');
    expect(ids).not.toContain('auth/wrong-token-refused');
    expect(planned.rateLimit.selected('rate-limit/sliding')).toBe(false);
    expect(planned.rateLimit.selected('rate-limit/boundary')).toBe(true);
    expect(planned.monitor).toBe(true);
    expect(planned.tokenFormCheck).toBe(true);
  });

  it('with --path, knows the scenarios too: a suite is a known name, and the error is that --path needs one family', async () => {
    await expect(plan(['users'], [], 'abc')).rejects.toBeInstanceOf(RunError);
    const [kept, skipped] = PROPERTY_FAMILIES.map((f) => `properties/${f.name}`);
    const replay = await plan([kept!, skipped!], [skipped!], '0');
    expect(replay.families.map((f) => `properties/${f.name}`)).toEqual([kept]);
  });
});

/** A TCP listener that counts connections: a target that would see anything the run sent. */
async function countingListener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, connections: () => connections };
}

describe('clockcheck run, end to end', () => {
  const env = { ...process.env, CLOCKCHECK_TOKEN: 'a-token-never-sent' };

  it('--only authh: exit 2, the suggestion in one line, no report, nothing sent to the target', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'clockcheck-selection-'));
    const target = await countingListener();
    try {
      const result = await runClockcheck(['run', '--target', `https://127.0.0.1:${target.port}`, '--insecure', '--only', 'authh', '--report-dir', reportDir], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`clockcheck: run: --only authh selects nothing (did you mean "auth"?); ${LISTS}\n`);
      expect(result.stdout).toBe('');
      expect(target.connections()).toBe(0);
      expect(await readdir(reportDir)).toEqual([]);
    } finally {
      target.server.close();
    }
  }, 60_000);

  it('refuses the selection before the embedded server starts (a server with an unknown fault would fail first)', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'clockcheck-selection-'));
    const result = await runClockcheck(['run', '--only', 'authh', '--fault', 'no-such-fault', '--report-dir', reportDir], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--only authh selects nothing (did you mean "auth"?)');
    expect(result.stderr).not.toContain('no-such-fault');
    expect(await readdir(reportDir)).toEqual([]);
  }, 60_000);

  it('--skip bogus: exit 2; --skip with --last-failed: exit 2', async () => {
    const bogus = await runClockcheck(['run', '--skip', 'bogus', '--plan'], env);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe(`clockcheck: run: --skip bogus skips nothing; ${LISTS}\n`);
    const rerun = await runClockcheck(['run', '--last-failed', '--skip', 'auth'], env);
    expect(rerun.code).toBe(2);
    expect(rerun.stderr).toContain('drop --only, --skip,');
  }, 60_000);

  it('--only auth --skip auth/token-form,auth/wrong-token-refused: --plan shows it, and the run runs it and records --skip', async () => {
    const args = ['--only', 'auth', '--skip', 'auth/token-form,auth/wrong-token-refused'];
    const planned = await runClockcheck(['run', ...args, '--plan', '--format', 'json'], env);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as PlanDocument;
    const scenarioIds = plan.checks.filter((c) => c.kind === 'scenario').map((c) => c.id);
    expect(scenarioIds).toContain('auth/missing-token-refused');
    expect(scenarioIds).not.toContain('auth/wrong-token-refused');

    const reportDir = await mkdtemp(join(tmpdir(), 'clockcheck-selection-'));
    const run = await runClockcheck(['run', ...args, '--quiet', '--seed', '3', '--report-dir', reportDir], process.env);
    expect(run.code).toBe(0);
    const [runDir] = await readdir(reportDir);
    const report = JSON.parse(await readFile(join(reportDir, runDir!, 'report.json'), 'utf8')) as RunReport;
    expect(report.options.only).toEqual(['auth']);
    expect(report.options.skip).toEqual(['auth/token-form', 'auth/wrong-token-refused']);
    expect(report.checks.map((c) => c.id).sort()).toEqual([...scenarioIds].sort());
    const schema = JSON.parse(await readFile(join(ROOT, 'docs/report-schema.json'), 'utf8')) as { properties: { options: object } };
    const validOptions = new Ajv2020({ strict: true }).compile(schema.properties.options);
    expect(validOptions(report.options), JSON.stringify(validOptions.errors)).toBe(true);
  }, 120_000);
});
