import { describe, expect, it } from 'vitest';
import { isJsonPath, isMultiPath, parsePath, select } from '../../src/records/json-path.ts';
import { InternalError } from '../../src/errors.ts';

const body = {
  items: [
    { id: 1, tags: ['a', 'b'] },
    { id: 2, tags: [] },
    { id: 3 },
  ],
  meta_data: { pagination: { total: 3, 'next-page': null } },
  message: 'ok',
};

describe('select', () => {
  it('selects the whole document with $', () => {
    expect(select(body, '$')).toEqual([body]);
    expect(select(null, '$')).toEqual([null]);
  });

  it('follows object keys, including keys with hyphens and null values', () => {
    expect(select(body, '$.meta_data.pagination.total')).toEqual([3]);
    expect(select(body, '$.meta_data.pagination.next-page')).toEqual([null]);
  });

  it('selects one array element by [n]', () => {
    expect(select(body, '$.items[1].id')).toEqual([2]);
    expect(select(body, '$.items[0].tags[1]')).toEqual(['b']);
  });

  it('selects every element with [*], through arrays of objects', () => {
    expect(select(body, '$.items[*].id')).toEqual([1, 2, 3]);
    expect(select(body, '$.items[*].tags[*]')).toEqual(['a', 'b']);
    expect(select(body, '$.items[*]')).toEqual(body.items);
  });

  it('yields nothing for missing steps instead of throwing', () => {
    expect(select(body, '$.nope')).toEqual([]);
    expect(select(body, '$.items[9].id')).toEqual([]);
    expect(select(body, '$.message.length')).toEqual([]);
    expect(select(body, '$.message[0]')).toEqual([]);
    expect(select(body, '$.items.id')).toEqual([]);
    expect(select(body, '$.items[*].tags[0]')).toEqual(['a']);
    expect(select(undefined, '$.a')).toEqual([]);
  });

  it('does not read inherited properties', () => {
    expect(select({}, '$.constructor')).toEqual([]);
    expect(select({ a: [] }, '$.a.length')).toEqual([]);
  });
});

describe('parsePath and isMultiPath', () => {
  it('parses keys, indexes and [*] in order', () => {
    expect(parsePath('$.items[0].id')).toEqual([{ key: 'items' }, { index: 0 }, { key: 'id' }]);
    expect(parsePath('$.items[*]')).toEqual([{ key: 'items' }, { all: true }]);
    expect(parsePath('$')).toEqual([]);
  });

  it('tells the paths of its grammar from the rest, which the suite loader rejects', () => {
    for (const path of ['$', '$.items[0].id', '$.items[*].id', '$record.role_id', '$list[*].first-name']) expect(isJsonPath(path), path).toBe(true);
    for (const path of ['items', 'items.id', '$records.id', '$.items[?(@.id)]', '$.items[-1]', '$..id', '$.']) expect(isJsonPath(path), path).toBe(false);
  });

  it('calls a malformed path that reaches the run a bug of clockcheck (InternalError), not a suite error', () => {
    const thrown = (() => {
      try {
        parsePath('items');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(InternalError);
    expect(thrown).toMatchObject({ code: 'CLOCKCHECK_INTERNAL', message: expect.stringContaining('JSON path "items"') });
    expect(() => select({ items: [] }, '$.items[?(@.id)]')).toThrow(InternalError);
  });

  it('calls a path with [*] a multi path', () => {
    expect(isMultiPath('$.items[*].id')).toBe(true);
    expect(isMultiPath('$.items[0].id')).toBe(false);
  });
});
