import { describe, expect, it } from 'vitest';
import { durationMatches } from '../../src/checks/duration-matches.ts';
import { parseArguments } from '../../src/input/arguments.ts';
import { exchangeFor, runCheck, type Reply } from '../scenarios/support.ts';

const previous = (reply: Reply) => exchangeFor({ method: 'GET', path: '/breaks' }, reply);
const noSend = (): Reply => {
  throw new Error('duration-matches sends nothing');
};
const judge = (json: unknown, args: Record<string, unknown>) => runCheck(durationMatches, args, noSend, { previous: previous({ status: 200, json }) });

const brk = (id: number, start: string, end: string, seconds: number) => ({ id, start, end, duration: seconds, duration_in_seconds: seconds });

describe('duration-matches', () => {
  it('passes breaks whose duration is end minus start in seconds', async () => {
    const json = { items: [brk(1, '2015-01-01T12:00:00-06:00', '2015-01-01T12:30:00-06:00', 1800), brk(2, '2015-01-01T12:00:00-06:00', '2015-01-01T12:00:59-06:00', 59)] };
    expect(await judge(json, { items: '$.items', field: 'duration_in_seconds' })).toMatchObject({ status: 'passed', requests: [] });
    expect((await judge(json, { items: '$.items[*]', field: 'duration' })).status).toBe('passed');
  });

  it('takes the offsets into account, across a DST change and across zones', async () => {
    const dst = brk(1, '2015-03-08T01:30:00-06:00', '2015-03-08T03:30:00-05:00', 3600);
    const zones = brk(2, '2015-01-01T12:00:00+00:00', '2015-01-01T07:30:00-05:00', 1800);
    expect((await judge({ items: [dst, zones] }, { items: '$.items', field: 'duration' })).findings).toEqual([]);
  });

  it('judges a single created break ({items: {...}})', async () => {
    const outcome = await judge({ items: brk(7, '2015-01-01T12:00:00-06:00', '2015-01-01T13:00:00-06:00', 3000) }, { items: '$.items', field: 'duration' });
    expect(outcome.findings).toEqual([
      expect.objectContaining({ ruleId: 'BRK-DURATION', expected: 'duration = 3600 (end 2015-01-01T13:00:00-06:00 − start 2015-01-01T12:00:00-06:00, in seconds)', actual: 'duration = 3000 (break 7)' }),
    ]);
  });

  it('fails a duration given as a string or in minutes', async () => {
    const outcome = await judge({ items: [{ ...brk(1, '2015-01-01T12:00:00-06:00', '2015-01-01T12:30:00-06:00', 30) }, { ...brk(2, '2015-01-01T12:00:00-06:00', '2015-01-01T12:30:00-06:00', 0), duration: '1800' }] }, { items: '$.items', field: 'duration' });
    expect(outcome.findings.map((f) => f.actual)).toEqual(['duration = 30 (break 1)', 'duration = "1800" (break 2)']);
  });

  it('leaves breaks with malformed datetimes to the format rules, and is errored when none is left', async () => {
    const outcome = await judge({ items: [{ id: 1, start: '2015-01-01 12:00', end: '2015-01-01T12:30:00-06:00', duration: 5 }] }, { items: '$.items', field: 'duration' });
    expect(outcome).toMatchObject({ status: 'errored', reason: 'none of 1 breaks with start, end and duration at $.items in the previous answer: BRK-DURATION needs a break to judge' });
  });

  it('is errored, never passed, when the previous answer lists no break (an empty list, a 500)', async () => {
    expect(await judge({ items: [] }, { items: '$.items', field: 'duration_in_seconds' })).toMatchObject({
      status: 'errored',
      findings: [],
      reason: 'no break at $.items in the previous answer: BRK-DURATION needs a break to judge',
    });
    const crashed = await runCheck(durationMatches, { items: '$.items', field: 'duration' }, noSend, { previous: previous({ status: 500, json: { message: 'Server Error' } }) });
    expect(crashed).toMatchObject({ status: 'errored', findings: [] });
  });

  it('is errored when the previous step has no JSON response, or there is none', async () => {
    const outcome = await runCheck(durationMatches, { items: '$.items', field: 'duration' }, noSend, { previous: previous({ status: 200, body: 'not json' }) });
    expect(outcome).toMatchObject({ status: 'errored', reason: "the previous step's GET answered 200 without a JSON body: the durations need a break to judge" });
    expect((await runCheck(durationMatches, { items: '$.items', field: 'duration' }, noSend)).status).toBe('errored');
  });

  it('declares an unknown field name and a JSON path without $ bad arguments', () => {
    expect(parseArguments(durationMatches.args, { items: '$.items', field: 'length' })).toMatchObject({ ok: false, issue: { path: ['field'] } });
    expect(parseArguments(durationMatches.args, { items: 'items', field: 'duration' })).toEqual({
      ok: false,
      issue: { path: ['items'], problem: 'expected a path like $.items[0].id, $.items[*].id, $record.role_id or $list[*].id' },
    });
  });
});
