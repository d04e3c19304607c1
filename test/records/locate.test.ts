import { describe, expect, it } from 'vitest';
import { parentPointer, resolvePointer } from '../../src/contract/json-pointer.ts';
import { locateItems, locateRecord } from '../../src/records/locate.ts';

describe('locateRecord', () => {
  it('finds the record at the top, one envelope deep, or in a one-element array', () => {
    expect(locateRecord({ id: 1 })).toEqual({ id: 1 });
    expect(locateRecord({ items: { id: 2 }, message: 'ok' })).toEqual({ id: 2 });
    expect(locateRecord({ data: [{ id: 3 }] })).toEqual({ id: 3 });
    expect(locateRecord({ message: 'ok' })).toBeUndefined();
  });

  it('takes the parent of the profile id_pointer when one is declared', () => {
    const body = { result: { user: { id: 4, first_name: 'A' } }, items: { id: 99 } };
    expect(locateRecord(body, { fields: 'auto', idPointer: '/result/user/id' })).toEqual({ id: 4, first_name: 'A' });
    expect(locateRecord({ id: 5 }, { fields: 'auto', idPointer: '/id' })).toEqual({ id: 5 });
    expect(locateRecord({ data: 1 }, { fields: 'auto', idPointer: '/data/id' })).toBeUndefined();
    expect(locateRecord({ items: [{ id: 6 }], message: 'ok' }, { fields: 'auto', idPointer: '/data/id' })).toEqual({ id: 6 });
  });
});

describe('locateItems', () => {
  it('finds items, else the only array, else nothing', () => {
    expect(locateItems({ items: [1], other: [2] })).toEqual([1]);
    expect(locateItems({ meta_data: {}, data: [3] })).toEqual([3]);
    expect(locateItems({ a: [1], b: [2] })).toBeUndefined();
    expect(locateItems([4])).toEqual([4]);
  });

  it('takes the profile list_items pointer first and falls back when it reaches no array (the break list keeps items)', () => {
    const users = { result: { rows: [{ id: 1 }] }, errors: [], warnings: [] };
    expect(locateItems(users, { fields: 'auto', listItems: '/result/rows' })).toEqual([{ id: 1 }]);
    expect(locateItems({ meta_data: {}, items: [{ id: 7 }] }, { fields: 'auto', listItems: '/result/rows' })).toEqual([{ id: 7 }]);
  });
});

describe('JSON pointers', () => {
  it('resolves own keys and array indexes only', () => {
    expect(resolvePointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(resolvePointer({ a: [1] }, '/a/x')).toBeUndefined();
    expect(resolvePointer({}, '/constructor')).toBeUndefined();
  });

  it('steps up one level', () => {
    expect(parentPointer('/data/id')).toBe('/data');
    expect(parentPointer('/id')).toBe('');
  });
});
