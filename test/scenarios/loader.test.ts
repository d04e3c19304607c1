import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { globToRegExp, loadSuites, parseSuite } from '../../src/scenarios/loader.ts';
import { SourceError } from '../../src/input/yaml-source.ts';
import { SUITE_HEAD, suiteFailure, suiteLines } from './support.ts';

const lines = suiteLines;
const HEAD = SUITE_HEAD;
const failure = suiteFailure;

describe('parseSuite: well-formed suites', () => {
  it('gives each scenario its run-wide id, its suite, its file and the line of its entry', () => {
    const text = lines(...HEAD, '    steps: []', '  - id: second', '    title: t', '    rules: [PAG-WALK]', '    pair:', '      request: { method: POST, path: /users, json: { a: 1 } }', '      variants: [{ why: w }]');
    const loaded = parseSuite(text, 'suites/demo.yaml', BUILTIN_CHECK_NAMES);
    expect(loaded.map((s) => [s.id, s.suite, s.file, s.line])).toEqual([
      ['demo/first', 'demo', 'suites/demo.yaml', 4],
      ['demo/second', 'demo', 'suites/demo.yaml', 8],
    ]);
  });

  it('fills the defaults: mutates false, requires and setup empty, expect {} and auth token', () => {
    const [loaded] = parseSuite(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }'), 'f.yaml', BUILTIN_CHECK_NAMES);
    const scenario = loaded!.scenario;
    expect(scenario.mutates).toBe(false);
    expect(scenario.requires).toEqual([]);
    expect(scenario.setup).toEqual([]);
    expect(scenario.steps).toEqual([{ request: { method: 'GET', path: '/users', auth: 'token' }, expect: {} }]);
  });

  it('resolves YAML anchors from definitions into the scenarios', () => {
    const text = lines('suite: demo', 'description: d', 'definitions:', '  user: &user { first_name: Ada }', 'scenarios:', '  - id: first', '    title: t', '    rules: [HTTPS-ONLY]', '    pair:', '      request: { method: POST, path: /users, json: *user }', '      variants: [{ why: w }]');
    const [loaded] = parseSuite(text, 'f.yaml', BUILTIN_CHECK_NAMES);
    expect(loaded!.scenario.pair?.request.json).toEqual({ first_name: 'Ada' });
  });
});

describe('parseSuite: malformed suites are rejected with file, line, field and hint', () => {
  it('reports a YAML syntax error at its line', () => {
    const e = failure(lines(...HEAD.slice(0, 4), '    title: a: b', '    steps: []'));
    expect(e).toMatchObject({ file: 'suites/demo.yaml', line: 5, field: '' });
    expect(e.problem).toMatch(/nested mappings/i);
    expect(e.message).toMatch(/^suites\/demo\.yaml:5: /);
  });

  it('reports a duplicate YAML key at the line of the second one', () => {
    const e = failure(lines(...HEAD, '    title: again', '    steps: []'));
    expect(e).toMatchObject({ line: 7, field: '' });
    expect(e.problem).toMatch(/unique/);
  });

  it('reports tab indentation at its line', () => {
    expect(failure(lines('suite: demo', 'description: d', 'scenarios:', '\t- id: a'))).toMatchObject({ line: 4 });
  });

  it('reports an unknown scenario key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    varaints: []', '    steps: []'));
    expect(e).toEqual(expect.objectContaining({ file: 'suites/demo.yaml', line: 7, field: 'scenarios[0].varaints', problem: 'unknown key', hint: 'did you mean "variants"?' }));
    expect(e.message).toBe('suites/demo.yaml:7: scenarios[0].varaints: unknown key (did you mean "variants"?)');
  });

  it('reports a when: key that is no declared reading, and a reading that does not exist', () => {
    const key = failure(lines(...HEAD, '    when: { user_email_fromat: validated }', '    steps: []'));
    expect(key).toMatchObject({ line: 7, field: 'scenarios[0].when.user_email_fromat', hint: 'did you mean "user_email_format"?' });
    const reading = failure(lines(...HEAD, '    when: { user_edit_required: either }', '    steps: []'));
    expect(reading).toMatchObject({ line: 7, field: 'scenarios[0].when.user_edit_required' });
  });

  it('reports an unknown suite key with "did you mean"', () => {
    const e = failure(lines('suite: demo', 'description: d', 'defintions: {}', ...HEAD.slice(2), '    steps: []'));
    expect(e).toMatchObject({ line: 3, field: 'defintions', hint: 'did you mean "definitions"?' });
  });

  it('reports an unknown request key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request:', '          method: POST', '          path: /users', '          jsn: { a: 1 }'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].request.jsn', problem: 'unknown key', hint: 'did you mean "json"?' });
  });

  it('reports an unknown request-step key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expcet: { status: 200 }'));
    expect(e).toMatchObject({ line: 9, field: 'scenarios[0].steps[0].expcet', hint: 'did you mean "expect"?' });
  });

  it('reports an unknown check-step key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - check: sorted', '        arsg: {}'));
    expect(e).toMatchObject({ line: 9, field: 'scenarios[0].steps[0].arsg', hint: 'did you mean "args"?' });
  });

  it('reports an unknown expect key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          status: 200', '          shema: pagination-block'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.shema', hint: 'did you mean "schema"?' });
  });

  it('reports an unknown assertion key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - path: $.items', '              lenght: 3'));
    expect(e).toMatchObject({ line: 12, field: 'scenarios[0].steps[0].expect.json[0].lenght', hint: 'did you mean "length"?' });
  });

  it('reports an unknown header-expectation key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          headers:', '            content-type: { machtes: json }'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.headers.content-type.machtes', hint: 'did you mean "matches"?' });
  });

  it('reports an unknown variant key with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    pair:', '      request: { method: POST, path: /users, json: { a: 1 } }', '      variants:', '        - why: w', '          sett: { a: 2 }'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].pair.variants[0].sett', hint: 'did you mean "set"?' });
  });

  it('reports an unknown key without a hint when nothing is close', () => {
    const e = failure(lines(...HEAD, '    steps: []', '    zzzzzzzzzz: 1'));
    expect(e).toMatchObject({ line: 8, field: 'scenarios[0].zzzzzzzzzz', problem: 'unknown key' });
    expect(e.hint).toBeUndefined();
  });

  it('reports a misspelled required pair key as unknown, with "did you mean"', () => {
    const e = failure(lines(...HEAD, '    pair:', '      request: { method: POST, path: /users, json: { a: 1 } }', '      varaints:', '        - why: w'));
    expect(e).toMatchObject({ line: 9, field: 'scenarios[0].pair.varaints', hint: 'did you mean "variants"?' });
  });

  // Also at scenario level (`titel`) and in a step (`reqest`, a union of request and check steps).
  it('reports a misspelled required scenario or step key as unknown, with "did you mean"', () => {
    const text = lines('suite: demo', 'description: d', 'scenarios:', '  - id: first', '    titel: t', '    rules: [HTTPS-ONLY]', '    steps: []');
    expect(failure(text)).toMatchObject({ line: 5, field: 'scenarios[0].titel', hint: 'did you mean "title"?' });
    expect(failure(lines(...HEAD, '    steps:', '      - reqest: { method: GET, path: /users }'))).toMatchObject({ line: 8, field: 'scenarios[0].steps[0].reqest', hint: 'did you mean "request"?' });
  });

  it('never proposes the unknown key itself as the correction', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users, status: 200 }'));
    expect(e).toMatchObject({ line: 8, field: 'scenarios[0].steps[0].request.status', problem: 'unknown key' });
    expect(e.hint).not.toBe('did you mean "status"?');
  });

  it('reports an unknown rule ID with "did you mean" at its line in a block list', () => {
    const e = failure(lines('suite: demo', 'description: d', 'scenarios:', '  - id: first', '    title: t', '    rules:', '      - HTTPS-ONLY', '      - USR-PASSWORD-CLASS', '    steps: []'));
    expect(e).toMatchObject({ line: 8, field: 'scenarios[0].rules[1]' });
    expect(e.problem).toBe('"USR-PASSWORD-CLASS" is not a rule ID of the catalog (did you mean "USR-PASSWORD-CLASSES"?)');
  });

  it('reports an unknown rule ID of an assertion and of a variant', () => {
    const assertion = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - path: $.items', '              rule: PAG-WALKK'));
    expect(assertion).toMatchObject({ line: 12, field: 'scenarios[0].steps[0].expect.json[0].rule' });
    expect(assertion.problem).toContain('did you mean "PAG-WALK"?');
    const variant = failure(lines(...HEAD, '    pair:', '      request: { method: POST, path: /users }', '      variants:', '        - why: w', '          rule: SCH-TIME-FROMAT'));
    expect(variant).toMatchObject({ line: 11, field: 'scenarios[0].pair.variants[0].rule' });
    expect(variant.problem).toContain('did you mean "SCH-TIME-FORMAT"?');
  });

  it('points to `clockcheck rules` when an unknown rule ID is close to none', () => {
    expect(failure(lines('suite: demo', 'description: d', 'scenarios:', '  - id: first', '    title: t', '    rules: [NOTHING-LIKE-IT-AT-ALL]', '    steps: []')).problem).toContain('`clockcheck rules` lists them');
  });

  it('reports an unknown check name with "did you mean", in steps and in setup', () => {
    const inSteps = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '      - check: pagination-wlak', '        args: {}'));
    expect(inSteps).toMatchObject({ line: 9, field: 'scenarios[0].steps[1].check', problem: 'unknown check "pagination-wlak"', hint: 'did you mean "pagination-walk"?' });
    const inSetup = failure(lines(...HEAD, '    setup:', '      - check: sortd', '    steps: []'));
    expect(inSetup).toMatchObject({ line: 8, field: 'scenarios[0].setup[0].check', hint: 'did you mean "sorted"?' });
  });

  it('lists the known checks when an unknown check name is close to none', () => {
    expect(failure(lines(...HEAD, '    steps:', '      - check: teleport')).hint).toBe(`known: ${BUILTIN_CHECK_NAMES.join(', ')}`);
  });

  it('rejects a scenario with both steps and pair, at the scenario line', () => {
    const e = failure(lines(...HEAD, '    steps: []', '    pair:', '      request: { method: POST, path: /users }', '      variants: [{ why: w }]'));
    expect(e).toMatchObject({ line: 4, field: 'scenarios[0]', problem: 'a scenario has exactly one of `steps` or `pair`' });
  });

  it('rejects a scenario with neither steps nor pair, at the scenario line', () => {
    expect(failure(lines('suite: demo', 'description: d', 'scenarios:', '  - id: only', '    title: t', '    rules: [HTTPS-ONLY]', '  - id: first', '    title: t', '    rules: [HTTPS-ONLY]', '    steps: []'))).toMatchObject({
      line: 4,
      field: 'scenarios[0]',
      problem: 'a scenario has exactly one of `steps` or `pair`',
    });
  });

  it('rejects a JSON path that does not start at $', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - { path: items.id, exists: true }'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.json[0].path', problem: 'expected a path like $.items[0].id, $.items[*].id, $record.role_id or $list[*].id' });
  });

  it('rejects a JSON path with a filter expression', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - { path: "$.items[?(@.id)]", exists: true }'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.json[0].path' });
  });

  it('rejects a status out of range at its line', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect: { status: 700 }'));
    expect(e).toMatchObject({ line: 9, field: 'scenarios[0].steps[0].expect.status' });
    expect(e.problem).toContain('599');
  });

  it('rejects an unknown status word at its line', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          status: ok'));
    expect(e).toMatchObject({ line: 10, field: 'scenarios[0].steps[0].expect.status' });
  });

  it('names the allowed status forms when a status word is unknown', () => {
    expect(failure(lines(...HEAD, '    steps:', '      - request: { method: GET, path: /users }', '        expect:', '          status: ok')).problem).toMatch(/success/);
  });

  it('rejects an unknown method with the allowed ones', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: PATCH, path: /users }'));
    expect(e).toMatchObject({ line: 8, field: 'scenarios[0].steps[0].request.method' });
    expect(e.problem).toContain('"DELETE"');
  });

  it('rejects a duplicate scenario id at the line of the second one', () => {
    const e = failure(lines(...HEAD, '    steps: []', '  - id: first', '    title: t', '    rules: [HTTPS-ONLY]', '    steps: []'));
    expect(e).toMatchObject({ line: 8, field: 'scenarios[1].id', problem: 'duplicate scenario id "first"' });
  });

  it('rejects an id that is not kebab-case', () => {
    const e = failure(lines('suite: demo', 'description: d', 'scenarios:', '  - title: t', '    id: Not_Kebab', '    rules: [HTTPS-ONLY]', '    steps: []'));
    expect(e).toMatchObject({ line: 5, field: 'scenarios[0].id', problem: 'expected kebab-case, e.g. rejects-feb-30' });
  });

  it('rejects a suite without scenarios and an empty file', () => {
    expect(failure(lines('suite: demo', 'description: d', 'scenarios: []'))).toMatchObject({ line: 3, field: 'scenarios' });
    expect(failure('')).toMatchObject({ line: 1, field: '' });
  });

  it('rejects a capture name that is not snake_case', () => {
    const e = failure(lines(...HEAD, '    steps:', '      - request: { method: POST, path: /users }', '        capture:', '          UserId: { from: created_id }'));
    expect(e).toMatchObject({ line: 10, field: 'scenarios[0].steps[0].capture.UserId' });
  });
});

describe('loadSuites', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clockcheck-suites-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const suite = (name: string, ids: readonly string[]) =>
    lines(`suite: ${name}`, 'description: d', 'scenarios:', ...ids.flatMap((id) => [`  - id: ${id}`, '    title: t', '    rules: [HTTPS-ONLY]', '    steps: []']));

  it('loads the matching files in file-name order, also from subfolders with **', async () => {
    await writeFile(join(dir, 'b.yaml'), suite('beta', ['one']));
    await writeFile(join(dir, 'a.yaml'), suite('alpha', ['one', 'two']));
    await mkdir(join(dir, 'nested'));
    await writeFile(join(dir, 'nested', 'c.yml'), suite('gamma', ['one']));
    await writeFile(join(dir, 'notes.txt'), 'not a suite');
    expect((await loadSuites(dir, '*.yaml', BUILTIN_CHECK_NAMES)).map((s) => s.id)).toEqual(['alpha/one', 'alpha/two', 'beta/one']);
    expect((await loadSuites(dir, '**/*.y*ml', BUILTIN_CHECK_NAMES)).map((s) => s.id)).toEqual(['alpha/one', 'alpha/two', 'beta/one', 'gamma/one']);
    expect((await loadSuites(dir, 'b.yaml', BUILTIN_CHECK_NAMES)).map((s) => s.id)).toEqual(['beta/one']);
  });

  it('rejects the same scenario id in two files, naming both files and the second line', async () => {
    await writeFile(join(dir, 'a.yaml'), suite('users', ['create']));
    await writeFile(join(dir, 'b.yaml'), suite('users', ['other', 'create']));
    const error = (await loadSuites(dir, '*.yaml', BUILTIN_CHECK_NAMES).catch((e: unknown) => e)) as SourceError;
    expect(error).toBeInstanceOf(SourceError);
    expect(error.file).toMatch(/b\.yaml$/);
    expect(error.line).toBe(8);
    expect(error.fieldPath).toBe('suite');
    expect(error.problem).toMatch(/^scenario id users\/create is also defined in .*a\.yaml$/);
  });

  it('rejects a glob that matches no file', async () => {
    await writeFile(join(dir, 'a.yaml'), suite('alpha', ['one']));
    const error = (await loadSuites(dir, 'nothing-*.yaml', BUILTIN_CHECK_NAMES).catch((e: unknown) => e)) as SourceError;
    expect(error).toBeInstanceOf(SourceError);
    expect(error.file).toBe(dir);
    expect(error.problem).toBe('no suite file matches "nothing-*.yaml"');
  });

  it('reports a malformed file with its path and line', async () => {
    await writeFile(join(dir, 'a.yaml'), lines(...HEAD, '    steps: []', '    mutate: true'));
    const error = (await loadSuites(dir, '*.yaml', BUILTIN_CHECK_NAMES).catch((e: unknown) => e)) as SourceError;
    expect(error.file).toMatch(/a\.yaml$/);
    expect(error).toMatchObject({ line: 8, fieldPath: 'scenarios[0].mutate', hint: 'did you mean "mutates"?' });
  });
});

describe('globToRegExp', () => {
  it('matches * within a folder, ** across folders and ? for one character', () => {
    expect(globToRegExp('*.yaml').test('users.yaml')).toBe(true);
    expect(globToRegExp('*.yaml').test('sub/users.yaml')).toBe(false);
    expect(globToRegExp('**/*.yaml').test('sub/deeper/users.yaml')).toBe(true);
    expect(globToRegExp('**/*.yaml').test('users.yaml')).toBe(true);
    expect(globToRegExp('user?.yaml').test('users.yaml')).toBe(true);
    expect(globToRegExp('users.yaml').test('usersXyaml')).toBe(false);
  });
});
