import { describe, expect, it } from 'vitest';
import { literalCreatedId, readIds, readPathId, storedId, wireId, writeIds } from '../../src/reference/id-wire.ts';

describe("the reference server's ways of writing IDs", () => {
  it('writes a stored ID in each form, and reads each form back; a form it never writes names no record', () => {
    expect([wireId('integer', 3), wireId('string', 3), wireId('string', 3, 'break'), wireId('negative', 3), wireId('beyond-2^53', 3)]).toEqual([3, '3', 3, -999_997, 9007199254740995n]);
    expect([storedId('string', '3'), storedId('string', 3), storedId('negative', -999_997), storedId('beyond-2^53', 9007199254740995n)]).toEqual([3, 3, 3, 3]);
    expect([storedId('negative', 3), storedId('beyond-2^53', 3), storedId('integer', 'abc'), storedId('integer', '3')]).toEqual([0, 0, null, null]);
  });

  it('writes the IDs of records and the references to them in answers, and reads them back from paths and bodies', () => {
    const answer = { items: { id: 4, user_id: 2, job_id: 1, user_ids: [2, 3], title: 'x' } };
    expect(writeIds('beyond-2^53', answer, 'other')).toEqual({ items: { id: 2n ** 53n + 4n, user_id: 2n ** 53n + 2n, job_id: 1, user_ids: [2n ** 53n + 2n, 2n ** 53n + 3n], title: 'x' } });
    expect(writeIds('string', { items: { id: 5, timesheet_id: 4 } }, 'break')).toEqual({ items: { id: 5, timesheet_id: 4 } });
    expect(readIds('negative', { user_id: -999_998, ids: [-999_999], break_rule_id: 1 })).toEqual({ user_id: 2, ids: [1], break_rule_id: 1 });
    expect([readPathId('beyond-2^53', '9007199254740997'), readPathId('negative', '-999995'), readPathId('negative', '5'), readPathId('string', 'abc')]).toEqual(['5', '5', '0', 'abc']);
  });

  it('puts a literal into the record of a create answer, under any envelope', () => {
    const wire = { literal: '1\r\nX-Injected: yes' };
    expect(literalCreatedId(wire, { items: { id: 1 }, message: 'ok' })).toEqual({ items: { id: wire.literal }, message: 'ok' });
    expect(literalCreatedId(wire, { data: [{ id: 1 }] })).toEqual({ data: [{ id: wire.literal }] });
    expect(literalCreatedId(wire, { id: 1 })).toEqual({ id: wire.literal });
  });
});
