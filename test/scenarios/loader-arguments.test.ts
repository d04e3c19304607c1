import { describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { parseSuite } from '../../src/scenarios/loader.ts';
import { SUITE_HEAD as HEAD, suiteFailure as failure, suiteLines as lines } from './support.ts';

// Line 7 of every suite below is `    steps:`; line 8 its first step.
const STEPS = [...HEAD, '    steps:'];

/** A suite whose one step is a check with these args, written one per line from line 10. */
const checkSuite = (check: string, ...args: string[]) => lines(...STEPS, `      - check: ${check}`, '        args:', ...args.map((a) => `          ${a}`));

/** A suite whose one step POSTs a timesheet whose `start` (line 11) is `value`. */
const templateSuite = (value: string) =>
  lines(...STEPS, '      - request:', '          method: POST', '          path: /timesheets', `          json: { user_id: 1, start: "${value}" }`);

describe('parseSuite: check arguments are checked when the suite loads, at their line', () => {
  it('reports an argument of the wrong kind at its line', () => {
    const e = failure(checkSuite('pagination-walk', 'path: /breaks', 'page_size: many'));
    expect(e).toMatchObject({ file: 'suites/demo.yaml', line: 11, field: 'scenarios[0].steps[0].args.page_size' });
    expect(e.message).toBe('suites/demo.yaml:11: scenarios[0].steps[0].args.page_size: Invalid input: expected number, received string');
  });

  it('reports an unknown argument with "did you mean" at the line of its key', () => {
    const e = failure(checkSuite('pagination-walk', 'path: /breaks', 'max_page: 3'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].args.max_page', problem: 'unknown argument', hint: 'did you mean "max_pages"?' });
    expect(e.message).toBe('suites/demo.yaml:11: scenarios[0].steps[0].args.max_page: unknown argument (did you mean "max_pages"?)');
  });

  it('reports a required argument left out as missing, at the args line', () => {
    const e = failure(lines(...STEPS, '      - check: sorted', '        args: { keys: [{ field: first_name }] }'));
    expect(e.message).toBe('suites/demo.yaml:9: scenarios[0].steps[0].args.path: required argument missing');
    expect(failure(lines(...STEPS, '      - check: head-parity')).message).toBe('suites/demo.yaml:8: scenarios[0].steps[0].args.path: required argument missing');
  });

  it('checks the args of setup steps and nested arguments too', () => {
    const e = failure(lines(...HEAD, '    setup:', '      - check: sorted', '        args:', '          path: /users', '          keys: [{ field: first_name, descnding: true }]', '    steps: []'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].setup[0].args.keys[0].descnding', problem: 'unknown argument', hint: 'did you mean "descending"?' });
  });

  it('gives a rule ID argument the catalog\'s "did you mean"', () => {
    const e = failure(checkSuite('list-membership', 'path: /users', 'rule: USR-LIST-FILTER-ROLL'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].args.rule', problem: '"USR-LIST-FILTER-ROLL" is not a rule ID of the catalog (did you mean "USR-LIST-FILTER-ROLE"?)' });
  });

  it('rejects a JSON path argument that does not start at $', () => {
    const e = failure(checkSuite('duration-matches', 'items: items[*]', 'field: duration'));
    expect(e.message).toBe('suites/demo.yaml:10: scenarios[0].steps[0].args.items: expected a path like $.items[0].id, $.items[*].id, $record.role_id or $list[*].id');
  });

  it('leaves to the run the kind of an argument that is one template reading a value (it keeps that value\'s type)', () => {
    const text = lines(...STEPS, '      - check: pagination-walk', '        args: { path: /breaks, page_size: "{{ vars.n }}", max_pages: "{{ fixtures.job_id }}" }');
    expect(parseSuite(text, 'suites/demo.yaml', BUILTIN_CHECK_NAMES)[0]!.scenario.steps).toEqual([
      { check: 'pagination-walk', args: { path: '/breaks', page_size: '{{ vars.n }}', max_pages: '{{ fixtures.job_id }}' } },
    ]);
  });

  it('judges an argument that is a function call or holds text around a template as the string it renders to', () => {
    expect(failure(checkSuite('pagination-walk', 'path: /breaks', 'page_size: "{{ jan_ymd(1) }}"')).field).toBe('scenarios[0].steps[0].args.page_size');
    expect(failure(checkSuite('pagination-walk', 'path: /breaks', 'page_size: "1{{ vars.n }}"')).field).toBe('scenarios[0].steps[0].args.page_size');
  });
});

describe('parseSuite: templates are checked when the suite loads, at the line of the value', () => {
  it('reports an unknown template function with "did you mean"', () => {
    const e = failure(templateSuite("{{ jna(1, '09:00') }}"));
    expect(e).toMatchObject({ file: 'suites/demo.yaml', line: 11, field: 'scenarios[0].steps[0].request.json.start', hint: 'did you mean "jan"?' });
    expect(e.message).toBe(`suites/demo.yaml:11: scenarios[0].steps[0].request.json.start: {{ jna(1, '09:00') }}: unknown template function jna() (did you mean "jan"?)`);
  });

  it('lists the functions when an unknown one is close to none', () => {
    expect(failure(templateSuite('{{ tomorrow() }}')).hint).toBe('known: jan, jul, jan_wrong, jul_wrong, jan_naive, jan_ymd, jul_ymd, us_date');
  });

  it('reports an argument of the wrong kind, naming its position and parameter', () => {
    expect(failure(templateSuite("{{ jan('x') }}")).problem).toBe("{{ jan('x') }}: jan() argument 1 (day): expected an integer from 0 to 13, got 'x'");
    expect(failure(templateSuite("{{ jan(1, '25:00') }}")).problem).toBe("{{ jan(1, '25:00') }}: jan() argument 2 (time): expected a time 'HH:mm' from 00:00 to 23:59, got '25:00'");
    expect(failure(templateSuite('{{ jan(1, 900) }}')).problem).toBe("{{ jan(1, 900) }}: jan() argument 2 (time): expected a quoted time 'HH:mm', got 900");
    expect(failure(templateSuite("{{ jul(1, '09:00', 'Mars/Olympus') }}")).problem).toBe(
      "{{ jul(1, '09:00', 'Mars/Olympus') }}: jul() argument 3 (zone): expected an IANA timezone name such as 'Europe/London', got 'Mars/Olympus'",
    );
    expect(failure(templateSuite('{{ us_date(20) }}')).problem).toBe('{{ us_date(20) }}: us_date() argument 1 (day): expected an integer from 0 to 13, got 20');
  });

  it('reports a call with too many arguments, naming the parameters', () => {
    const e = failure(templateSuite("{{ jan_ymd(1, '09:00') }}"));
    expect(e).toMatchObject({ line: 11, problem: "{{ jan_ymd(1, '09:00') }}: jan_ymd() takes at most 1 argument (day), got 2" });
    expect(failure(templateSuite("{{ jan_naive(1, '09:00', 'UTC') }}")).problem).toContain('jan_naive() takes at most 2 arguments (day, time), got 3');
  });

  it('reports an argument that is neither an integer nor a quoted string', () => {
    expect(failure(templateSuite('{{ jan(one) }}')).problem).toBe('{{ jan(one) }}: argument one must be an integer or a quoted string');
  });

  it('reports a path that starts at an unknown root, with "did you mean"', () => {
    const e = failure(templateSuite('{{ fixture.job_id }}'));
    expect(e).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].request.json.start', problem: '{{ fixture.job_id }}: unknown template root "fixture"', hint: 'did you mean "fixtures"?' });
    expect(failure(templateSuite('{{ nothing_like_it }}')).hint).toBe('known: fixtures, vars, profile, company_timezone, sink, unique');
  });

  it('reports an unknown name under a root whose names are fixed, and a name under a plain value', () => {
    expect(failure(templateSuite('{{ unique.mail }}'))).toMatchObject({ problem: '{{ unique.mail }}: unknown template value "unique.mail"', hint: 'did you mean "unique.email"?' });
    expect(failure(templateSuite('{{ sink.uri }}')).hint).toBe('did you mean "sink.url"?');
    expect(failure(templateSuite('{{ company_timezone.name }}')).problem).toBe('{{ company_timezone.name }}: company_timezone is a value, not an object: nothing is under it');
  });

  it('reports a malformed path', () => {
    expect(failure(templateSuite('{{ fixtures..job_id }}')).problem).toBe(
      `{{ fixtures..job_id }}: cannot read "fixtures..job_id": expected a path like fixtures.job_id or a function call like jan(1, '09:00')`,
    );
  });

  it('finds templates inside longer strings, in let, setup, expectations, check args and pair variants', () => {
    expect(failure(lines(...HEAD, "    let: { at: \"{{ jan(1, '9:00') }}\" }", '    steps: []'))).toMatchObject({ line: 7, field: 'scenarios[0].let.at' });
    const inPath = failure(lines(...STEPS, '      - request: { method: GET, path: "/users/{{ var.user_id }}" }'));
    expect(inPath).toMatchObject({ line: 8, field: 'scenarios[0].steps[0].request.path', hint: 'did you mean "vars"?' });
    const inExpect = failure(lines(...STEPS, '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - { path: "$.items[*].id", every_in: ["{{ vars.a }}", "{{ varz.b }}"] }'));
    expect(inExpect).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.json[0].every_in[1]' });
    const inArgs = failure(checkSuite('list-membership', 'path: /breaks', 'include: ["{{ vars.a }}", "{{ jan_ymd() }}", "{{ jul_ymd(99) }}"]'));
    expect(inArgs).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].args.include[2]' });
    const inVariant = failure(lines(...HEAD, '    pair:', '      request: { method: POST, path: /schedules, json: { a: 1 } }', '      variants:', '        - why: w', "          set: { start_time: \"{{ jan(1, '24:00') }}\" }"));
    expect(inVariant).toMatchObject({ line: 11, field: 'scenarios[0].pair.variants[0].set.start_time' });
  });

  it('accepts values only the run knows: a var captured later, a fixture the profile may lack, the sink', () => {
    const text = lines(
      ...STEPS,
      '      - request: { method: POST, path: "/users/{{ vars.never_captured }}", json: { u: "{{ fixtures.not_a_fixture_yet }}", s: "{{ sink.url }}", e: "{{ unique.email }}" } }',
      "      - request: { method: GET, path: /timesheets, query: { from: \"{{ jan_ymd(13) }}\", at: \"{{ jul_wrong(0, '23:59', 'Asia/Tokyo') }}\" } }",
    );
    expect(parseSuite(text, 'suites/demo.yaml', BUILTIN_CHECK_NAMES)).toHaveLength(1);
  });
});

describe('parseSuite: JSON paths are checked when the suite loads', () => {
  it('rejects a capture path that does not start at $, at its line', () => {
    const e = failure(lines(...STEPS, '      - request: { method: POST, path: /users }', '        capture:', '          user_id: { path: "items[0].id" }'));
    expect(e.message).toBe('suites/demo.yaml:10: scenarios[0].steps[0].capture.user_id.path: expected a path like $.items[0].id, $.items[*].id, $record.role_id or $list[*].id');
  });

  it('rejects a capture path with steps the grammar does not have', () => {
    expect(failure(lines(...STEPS, '      - request: { method: POST, path: /users }', '        capture:', '          user_id: { path: "$.items[last].id" }'))).toMatchObject({
      line: 10,
      field: 'scenarios[0].steps[0].capture.user_id.path',
    });
  });
});

describe('parseSuite: regular expressions are compiled when the suite loads', () => {
  it('rejects a `matches:` that is no regular expression, in a JSON assertion and a header expectation', () => {
    const assertion = failure(lines(...STEPS, '      - request: { method: GET, path: /users }', '        expect:', '          json:', '            - { path: $, matches: "a(b" }'));
    expect(assertion).toMatchObject({ line: 11, field: 'scenarios[0].steps[0].expect.json[0].matches' });
    expect(assertion.problem).toMatch(/^not a regular expression: Invalid regular expression: \/a\(b\/: Unterminated group/);
    const header = failure(lines(...STEPS, '      - request: { method: GET, path: /users }', '        expect: { headers: { content-type: { matches: "[json" } } }'));
    expect(header).toMatchObject({ line: 9, field: 'scenarios[0].steps[0].expect.headers.content-type.matches' });
  });
});
