import { describe, expect, it } from 'vitest';
import { matchOffsetToZone } from '../../src/contract/formats/index.ts';
import { evaluate, render } from '../../src/scenarios/template.ts';
import { runDates } from '../../src/scenarios/template-context.ts';
import { TemplateError } from '../../src/scenarios/template-error.ts';
import { MAX_TEMPLATE_DAY } from '../../src/scenarios/template-context.ts';
import { referencedPaths } from '../../src/input/template-syntax.ts';
import { templateContext } from './support.ts';

// Seed 0: base year 2015, base day 1, so jan(0, ...) is 2015-01-01 and jul(0, ...) 2015-07-01.
const ctx = templateContext({
  fixtures: { job_id: 7, active_user_ids: [11, 12], role_user_ids: { admin: [21] } },
  vars: { timesheet_id: 99, ids: [1, 2] },
  profile: { versioned_prefix: '/api/v2' },
});

/** What `run` throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('render: substitution', () => {
  it('keeps the type of a value when the whole string is one template', () => {
    expect(render('{{ fixtures.job_id }}', ctx)).toBe(7);
    expect(render('{{fixtures.active_user_ids}}', ctx)).toEqual([11, 12]);
    expect(render('{{ vars.ids }}', ctx)).toEqual([1, 2]);
  });

  it('interpolates templates inside a longer string as text', () => {
    expect(render('/timesheets/{{ vars.timesheet_id }}?job={{ fixtures.job_id }}', ctx)).toBe('/timesheets/99?job=7');
    expect(render('ids={{ vars.ids }}', ctx)).toBe('ids=[1,2]');
    expect(render(' {{ fixtures.job_id }}', ctx)).toBe(' 7');
  });

  it('reads fixtures by [index], nested fixtures, vars, the profile and the company timezone', () => {
    expect(render('{{ fixtures.active_user_ids[1] }}', ctx)).toBe(12);
    expect(render('{{ fixtures.role_user_ids.admin[0] }}', ctx)).toBe(21);
    expect(render('{{ profile.versioned_prefix }}', ctx)).toBe('/api/v2');
    expect(render('{{ company_timezone }}', ctx)).toBe('America/Chicago');
  });

  it('renders objects and arrays deeply and leaves non-strings alone', () => {
    expect(render({ a: ['{{ fixtures.job_id }}', 3, null, true], b: { c: 'x{{ vars.timesheet_id }}' } }, ctx)).toEqual({ a: [7, 3, null, true], b: { c: 'x99' } });
  });

  it('gives a fresh unique value on every render', () => {
    const fresh = templateContext();
    const first = render('{{ unique.email }}', fresh);
    const second = render('{{ unique.email }}', fresh);
    expect(first).not.toBe(second);
    expect(render('{{ unique.name }}', fresh)).toMatch(/^[A-Za-z]+$/);
    expect(render('{{ unique.token }}', fresh)).not.toBe(render('{{ unique.token }}', fresh));
  });

  it('throws a TemplateError coded CLOCKCHECK_PRECONDITION for a missing fixture, var, index or sink', () => {
    expect(() => render('{{ fixtures.inactive_user_id }}', ctx)).toThrow('"fixtures.inactive_user_id" is not set (missing "inactive_user_id")');
    for (const text of ['{{ fixtures.inactive_user_id }}', '{{ fixtures.active_user_ids[5] }}', 'x {{ vars.nope }}', '{{ sink.url }}']) {
      expect(thrown(() => render(text, ctx)), text).toMatchObject({ name: 'TemplateError', code: 'CLOCKCHECK_PRECONDITION' });
    }
    expect(() => render('{{ sink.url }}', ctx)).toThrow('"sink.url" is not set (missing "sink")');
  });

  it('throws a TemplateError coded CLOCKCHECK_SOURCE for a malformed template no loader saw, with the one message the loader gives', () => {
    const cases = [
      ["{{ feb(0, '09:00') }}", `{{ feb(0, '09:00') }}: unknown template function feb() (known: jan, jul, jan_wrong, jul_wrong, jan_naive, jan_ymd, jul_ymd, us_date)`],
      ["{{ jna(0, '09:00') }}", `{{ jna(0, '09:00') }}: unknown template function jna() (did you mean "jan"?)`],
      ['{{ fixtures..job_id }}', `{{ fixtures..job_id }}: cannot read "fixtures..job_id": expected a path like fixtures.job_id or a function call like jan(1, '09:00')`],
      ['{{ jan(zero) }}', '{{ jan(zero) }}: argument zero must be an integer or a quoted string'],
      ["{{ jan(0, '9am') }}", "{{ jan(0, '9am') }}: jan() argument 2 (time): expected a time 'HH:mm' from 00:00 to 23:59, got '9am'"],
      ['{{ fixture.job_id }}', '{{ fixture.job_id }}: unknown template root "fixture" (did you mean "fixtures"?)'],
    ] as const;
    for (const [text, message] of cases) {
      const error = thrown(() => render(text, ctx));
      expect(error, text).toBeInstanceOf(TemplateError);
      expect(error, text).toMatchObject({ code: 'CLOCKCHECK_SOURCE', message });
    }
  });

  it('does not read inherited properties as template values', () => {
    expect(() => render('{{ fixtures.constructor }}', ctx)).toThrow(TemplateError);
  });
});

describe('render: dates', () => {
  it('writes January and July in the company timezone with its real offsets (-06:00, -05:00)', () => {
    expect(render("{{ jan(0, '09:00') }}", ctx)).toBe('2015-01-01T09:00:00-06:00');
    expect(render("{{ jul(0, '09:00') }}", ctx)).toBe('2015-07-01T09:00:00-05:00');
    expect(render("{{ jan(3, '17:30') }}", ctx)).toBe('2015-01-04T17:30:00-06:00');
  });

  it('writes an explicit zone with its own offsets', () => {
    expect(render("{{ jan(0, '09:00', 'Europe/London') }}", ctx)).toBe('2015-01-01T09:00:00+00:00');
    expect(render("{{ jul(0, '09:00', 'Europe/London') }}", ctx)).toBe('2015-07-01T09:00:00+01:00');
    expect(render('{{ jan(0, "09:00", "Australia/Sydney") }}', ctx)).toBe('2015-01-01T09:00:00+11:00');
    expect(render("{{ jul(0, '09:00', 'Australia/Sydney') }}", ctx)).toBe('2015-07-01T09:00:00+10:00');
  });

  it('defaults to day 0 at 09:00', () => {
    expect(render('{{ jan() }}', ctx)).toBe('2015-01-01T09:00:00-06:00');
  });

  it('writes the right offsets that the spec model accepts', () => {
    for (const [expr, zone] of [["jan(2, '09:00')", 'America/Chicago'], ["jul(2, '09:00')", 'America/Chicago'], ["jan(2, '09:00', 'Australia/Sydney')", 'Australia/Sydney']] as const) {
      expect(matchOffsetToZone(evaluate(expr, ctx) as string, zone)?.matches, expr).toBe(true);
    }
  });

  it('writes jan_wrong and jul_wrong with the same wall time and the offset exactly one hour off', () => {
    const cases = [
      ["jan_wrong(0, '09:00')", 'America/Chicago', '2015-01-01T09:00:00-05:00'],
      ["jul_wrong(0, '09:00')", 'America/Chicago', '2015-07-01T09:00:00-04:00'],
      ["jan_wrong(0, '09:00', 'Europe/London')", 'Europe/London', '2015-01-01T09:00:00+01:00'],
      ["jul_wrong(0, '09:00', 'Europe/London')", 'Europe/London', '2015-07-01T09:00:00+02:00'],
      ["jan_wrong(0, '09:00', 'Australia/Sydney')", 'Australia/Sydney', '2015-01-01T09:00:00+12:00'],
    ] as const;
    for (const [expr, zone, text] of cases) {
      const value = evaluate(expr, ctx) as string;
      expect(value, expr).toBe(text);
      const match = matchOffsetToZone(value, zone);
      expect(match?.matches, expr).toBe(false);
      expect(Math.abs(match!.writtenOffsetMinutes - match!.zoneOffsetMinutes), expr).toBe(60);
    }
  });

  it('writes naive datetimes, YYYY-MM-DD and US dates of the base day plus DAY', () => {
    expect(render("{{ jan_naive(2, '08:15') }}", ctx)).toBe('2015-01-03T08:15:00');
    expect(render('{{ jan_ymd(2) }}', ctx)).toBe('2015-01-03');
    expect(render('{{ jul_ymd(2) }}', ctx)).toBe('2015-07-03');
    expect(render('{{ us_date(2) }}', ctx)).toBe('01/03/2015');
  });

  it('interpolates dates inside longer strings', () => {
    expect(render("{{ jan_ymd(0) }},{{ jan_ymd(6) }}", ctx)).toBe('2015-01-01,2015-01-07');
  });

  it('derives the base year and day from the seed, the same for the same seed', () => {
    expect(runDates(0)).toEqual({ year: 2015, day: 1 });
    expect(runDates(123)).toEqual({ year: 2018, day: 13 });
    expect(runDates(123)).toEqual(runDates(123));
    const at = (seed: number) => evaluate("jan(1, '09:00')", templateContext({ dates: runDates(seed) }));
    expect(at(4242)).toBe(at(4242));
    expect(at(4242)).not.toBe(at(4243));
  });

  it('keeps every base day plus the largest DAY a template may add (13) within January and July', () => {
    expect(MAX_TEMPLATE_DAY).toBe(13);
    for (let seed = 0; seed < 200; seed++) {
      const dates = runDates(seed);
      expect(dates.year).toBeGreaterThanOrEqual(2015);
      expect(dates.year).toBeLessThanOrEqual(2024);
      expect(dates.day + MAX_TEMPLATE_DAY).toBeLessThanOrEqual(31);
    }
  });
});

describe('referencedPaths', () => {
  it('lists the paths templates read, deeply, but not function calls', () => {
    const value = {
      path: '/users/{{ fixtures.inactive_user_id }}',
      json: { ids: ['{{ vars.a }}', "{{ jan(0, '09:00') }}"], nested: [{ x: 'a {{ fixtures.role_user_ids.admin[0] }} b {{ company_timezone }}' }] },
      n: 3,
      none: null,
    };
    expect(referencedPaths(value)).toEqual(['fixtures.inactive_user_id', 'vars.a', 'fixtures.role_user_ids.admin[0]', 'company_timezone']);
  });

  it('finds nothing in values without templates', () => {
    expect(referencedPaths({ a: 'plain', b: [1, 'x'] })).toEqual([]);
  });
});
