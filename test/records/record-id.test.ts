import { describe, expect, it } from 'vitest';
import { createdKindOf, readCreatedId, readId, shownValue } from '../../src/records/created-id.ts';

describe('an ID by meaning', () => {
  const cases: Array<[unknown, number | bigint | null]> = [
    [42, 42],
    ['42', 42],
    [-7, -7],
    ['-7', -7],
    [9007199254740993n, 9007199254740993n],
    ['9007199254740993', 9007199254740993n],
    [12n, 12],
    ['日本', null],
    ['1 && x', null],
    ['1\nx', null],
    ['1\r\nX-Injected: yes', null],
    ['x\u0000y', null],
    ['', null],
    [1.5, null],
    [' 42', null],
    [true, null],
    ['x'.repeat(10_000), null],
  ];
  it.each(cases.map(([value, expected]) => [shownValue(value).slice(0, 30), value, String(expected)] as const))('%s reads as %s', (_shown, value, expected) => {
    expect(String(readId(value))).toBe(expected);
  });

  it('shows a value that is no ID escaped, on one line, cut when long', () => {
    expect(shownValue('1\r\nX-Injected: yes')).toBe('"1\\r\\nX-Injected: yes"');
    expect(shownValue('x\u0000y')).toBe('"x\\u0000y"');
    expect(shownValue('a\u2028b\u0085')).toBe('"a\\u2028b\\u0085"');
    expect(shownValue('x'.repeat(10_000))).toMatch(/^"x{79}… \(10002 characters\)$/);
  });
});

describe('the ID a create answer gives its record', () => {
  const profile = { id_pointer: '/data/id' };

  it("reads a user's, schedule's or timesheet's at the profile's id_pointer, else under any one envelope", () => {
    expect(readCreatedId({ data: { id: '42' } }, profile, 'user')).toEqual({ kind: 'id', id: 42 });
    expect(readCreatedId({ items: { id: 7 } }, {}, 'timesheet')).toEqual({ kind: 'id', id: 7 });
    expect(readCreatedId({ id: 9007199254740993n }, {}, 'schedule')).toEqual({ kind: 'id', id: 9007199254740993n });
    expect(readCreatedId({ message: 'ok' }, {}, 'user')).toEqual({ kind: 'absent' });
    expect(readCreatedId({ data: { id: '1 && x' } }, profile, 'user')).toEqual({ kind: 'not-integer', value: '1 && x', shown: '"1 && x"' });
  });

  it("reads a break's where §4.4 puts it, in items, whatever the profile's id_pointer says of the other creates", () => {
    const bare = { id_pointer: '/id' };
    expect(readCreatedId({ items: { id: 5, timesheet_id: 1 }, message: 'Break added' }, bare, 'break')).toEqual({ kind: 'id', id: 5 });
    expect(readCreatedId({ items: [{ id: 6 }], message: 'Break added' }, bare, 'break')).toEqual({ kind: 'id', id: 6 });
    expect(readCreatedId({ id: 5 }, bare, 'break')).toEqual({ kind: 'absent' });
  });

  it('knows which POST path creates which record', () => {
    expect(['/users', '/api/public/schedules', '/api/v2/timesheets/', '/breaks?x=1', '/users/3', '/webhooks/subscription'].map(createdKindOf)).toEqual(['user', 'schedule', 'timesheet', 'break', undefined, undefined]);
  });
});

describe('the reading of an answer by its path', () => {
  it("reads a break list or create answer as the spec shows it, whatever the profile's readings; anything else as the profile says", async () => {
    const { recordReadingFor } = await import('../../src/records/record-reading.ts');
    const profile = { record_fields: 'camel' as const, id_pointer: '/id', list_items: '/data' };
    for (const path of ['/breaks', '/breaks?page_size=100', 'https://t.test/api/public/breaks', '/api/v2/breaks/']) expect(recordReadingFor(profile, path), path).toEqual({ fields: 'auto' });
    for (const path of ['/users?search=breaks', '/users', 'https://t.test/api/public/timesheets?x=/breaks']) expect(recordReadingFor(profile, path), path).toEqual({ fields: 'camel', idPointer: '/id', listItems: '/data' });
  });
});
