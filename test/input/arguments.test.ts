import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentsIssue, issueText, parseArguments, parsePositionalArguments } from '../../src/input/arguments.ts';
import { clockTimeParameter, integerParameter, timezoneNameParameter } from '../../src/input/parameter-kinds.ts';

const Args = z.strictObject({ path: z.string().startsWith('/'), page_size: z.number().int().positive().optional(), keys: z.array(z.strictObject({ field: z.string() })).default([]) });
const Call = z.strictObject({ day: integerParameter(0, 0, 13), time: clockTimeParameter('09:00'), zone: timezoneNameParameter() });

describe('parseArguments', () => {
  it('gives the typed value with the defaults filled in', () => {
    expect(parseArguments(Args, { path: '/users' })).toEqual({ ok: true, value: { path: '/users', keys: [] } });
  });

  it('gives one issue with its field path: a wrong kind, an unknown key with "did you mean", a required one missing', () => {
    expect(parseArguments(Args, { path: '/users', page_size: 'x' })).toEqual({ ok: false, issue: { path: ['page_size'], problem: 'Invalid input: expected number, received string' } });
    expect(parseArguments(Args, { path: '/users', keys: [{ feild: 'id' }] })).toMatchObject({ ok: false, issue: { path: ['keys', 0, 'feild'], problem: 'unknown argument', hint: 'did you mean "field"?' } });
    expect(parseArguments(Args, { keys: [] })).toEqual({ ok: false, issue: { path: ['path'], problem: 'required argument missing' } });
  });

  it('writes an issue as the one line the run shows', () => {
    const parsed = parseArguments(Args, { path: '/users', pagesize: 3 });
    expect(!parsed.ok && issueText(parsed.issue, ['args'])).toBe('args.pagesize: unknown argument (did you mean "page_size"?)');
  });
});

describe('argumentsIssue', () => {
  const deferred = (value: unknown) => value === 'LATER';

  it('leaves issues with values only the run knows to the run, and reports the others', () => {
    expect(argumentsIssue(Args, { path: '/users', page_size: 'LATER' }, deferred)).toBeUndefined();
    expect(argumentsIssue(Args, { path: '/users', page_size: 'LATER', keys: 3 }, deferred)).toMatchObject({ path: ['keys'] });
  });
});

describe('parsePositionalArguments', () => {
  it('names the arguments in declaration order and fills the defaults', () => {
    expect(parsePositionalArguments(Call, [2])).toEqual({ ok: true, value: { day: 2, time: '09:00' } });
    expect(parsePositionalArguments(Call, [2, '17:30', 'Asia/Tokyo'])).toEqual({ ok: true, value: { day: 2, time: '17:30', zone: 'Asia/Tokyo' } });
  });

  it('names the position and the parameter of a wrong argument, and counts the parameters of too many', () => {
    expect(parsePositionalArguments(Call, ['x'])).toEqual({ ok: false, issue: { path: [], problem: "argument 1 (day): expected an integer from 0 to 13, got 'x'" } });
    expect(parsePositionalArguments(Call, [14])).toEqual({ ok: false, issue: { path: [], problem: 'argument 1 (day): expected an integer from 0 to 13, got 14' } });
    expect(parsePositionalArguments(Call, [1, '24:00'])).toEqual({ ok: false, issue: { path: [], problem: "argument 2 (time): expected a time 'HH:mm' from 00:00 to 23:59, got '24:00'" } });
    expect(parsePositionalArguments(Call, [1, '09:00', 'europe/london'])).toMatchObject({ ok: false, issue: { problem: expect.stringMatching(/^argument 3 \(zone\): expected an IANA timezone name/) } });
    expect(parsePositionalArguments(Call, [1, '09:00', 'UTC', 4])).toEqual({ ok: false, issue: { path: [], problem: 'takes at most 3 arguments (day, time, zone), got 4' } });
  });
});
