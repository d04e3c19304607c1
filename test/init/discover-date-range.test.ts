import { describe, expect, it } from 'vitest';
import { discoverDateRangeEnds } from '../../src/init/discover-date-range.ts';
import { readList } from '../../src/init/list-answer.ts';
import { AUTO_READING } from '../../src/records/record-reading.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import { exchangeFor } from '../scenarios/support.ts';

const SHEET = { id: 9, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' };
const listed = readList(exchangeFor({ method: 'GET', path: '/timesheets' }, { status: 200, json: { items: [{ id: 4, start: null }, SHEET] } }));

/**
 * A target whose range lists the timesheet when `keeps(first, last, day)` says so: `day` the date it
 * reads the timesheet on (its own, or shifted by another zone).
 */
function target(keeps: (first: string, last: string, day: string) => boolean, day = '2026-10-01') {
  const sent: string[] = [];
  const send = async (request: TargetRequest) => {
    const range = String(request.query?.date_range ?? '');
    sent.push(range);
    const [first, last] = range.split(',') as [string, string];
    return exchangeFor(request, { status: 200, json: { items: keeps(first, last, day) ? [SHEET] : [] } });
  };
  return { send, sent };
}
const inclusive = (first: string, last: string, day: string) => first <= day && day <= last;
const exclusive = (first: string, last: string, day: string) => first < day && day < last;

describe('discoverDateRangeEnds', () => {
  it('reads inclusive where both end dates list the timesheet, in three requests around its day', async () => {
    const { send, sent } = target(inclusive);
    const found = await discoverDateRangeEnds(send, listed, AUTO_READING);
    expect(found.value).toBe('inclusive');
    expect(sent).toEqual(['2026-09-30,2026-10-02', '2026-10-01,2026-10-02', '2026-09-30,2026-10-01']);
  });

  it('reads exclusive where neither end lists it but the range strictly around it does', async () => {
    expect((await discoverDateRangeEnds(target(exclusive).send, listed, AUTO_READING)).value).toBe('exclusive');
  });

  it('concludes nothing from a half-open range, nor from a target that reads the date in another zone', async () => {
    const halfOpen = await discoverDateRangeEnds(target((first, last, day) => first <= day && day < last).send, listed, AUTO_READING);
    expect(halfOpen).toMatchObject({ why: expect.stringMatching(/lists it on its first day; .* leaves out it on its last: not one reading of both ends; left at either$/) });
    // Read a day later (UTC past midnight): inclusive looks half-open, exclusive is not listed strictly inside.
    expect((await discoverDateRangeEnds(target(inclusive, '2026-10-02').send, listed, AUTO_READING)).value).toBeUndefined();
    const shifted = await discoverDateRangeEnds(target(exclusive, '2026-10-02').send, listed, AUTO_READING);
    expect(shifted).toMatchObject({ why: expect.stringContaining('is not shown listed strictly inside the range') });
  });

  it('sends nothing without a dated timesheet, and reads a start written without an offset by its date', async () => {
    const { send, sent } = target(inclusive);
    const none = await discoverDateRangeEnds(send, readList(exchangeFor({ method: 'GET', path: '/timesheets' }, { status: 200, json: { items: [] } })), AUTO_READING);
    expect(none).toMatchObject({ why: expect.stringContaining('no timesheet with an ID and a dated start') });
    expect(sent).toEqual([]);
    const naive = readList(exchangeFor({ method: 'GET', path: '/timesheets' }, { status: 200, json: { items: [{ id: 9, clock_in_time: '2026-10-01 09:00:00' }] } }));
    expect((await discoverDateRangeEnds(send, naive, AUTO_READING)).value).toBe('inclusive');
  });
});
