import { describe, expect, it } from 'vitest';
import { JSON_BOUNDS, jsonBoundsProblem, parseBoundedJson } from '../../src/client/bounded-json.ts';

describe('parseBoundedJson: what a response body may parse into', () => {
  it('parses the documents of this API (a page of 100 users) within the bounds', () => {
    const page = { meta_data: { page: 1, page_size: 100, total: 100 }, items: Array.from({ length: 100 }, (_, i) => ({ id: i, first_name: 'A', tags: [1, 2, { x: null }] })) };
    expect(parseBoundedJson(JSON.stringify(page))).toEqual({ kind: 'json', value: page });
  });

  it('tells an empty body and a body that is not JSON apart', () => {
    expect(parseBoundedJson('  \n')).toEqual({ kind: 'empty' });
    expect(parseBoundedJson('<html>')).toEqual({ kind: 'not-json' });
    expect(parseBoundedJson('{"a": [1,')).toEqual({ kind: 'not-json' });
  });

  it('does not parse a body nested deeper than the bound, and says so', () => {
    const deep = `${'['.repeat(150_000)}${']'.repeat(150_000)}`;
    expect(parseBoundedJson(deep)).toEqual({ kind: 'over-bounds', problem: `nested deeper than ${JSON_BOUNDS.maxDepth} levels` });
    const objects = `${'{"a":'.repeat(JSON_BOUNDS.maxDepth + 1)}1${'}'.repeat(JSON_BOUNDS.maxDepth + 1)}`;
    expect(jsonBoundsProblem(objects)).toMatch(/nested deeper/);
    const atTheBound = `${'['.repeat(JSON_BOUNDS.maxDepth)}${']'.repeat(JSON_BOUNDS.maxDepth)}`;
    expect(parseBoundedJson(atTheBound).kind).toBe('json');
  });

  it('does not parse a body of more values than the bound, and says so', () => {
    const wide = `[${'1,'.repeat(499_999)}1]`;
    expect(parseBoundedJson(wide)).toEqual({ kind: 'over-bounds', problem: `more than ${JSON_BOUNDS.maxValues} values` });
    expect(jsonBoundsProblem(JSON.stringify(Array.from({ length: JSON_BOUNDS.maxValues - 1 }, () => 0)))).toBeNull();
  });

  it('counts neither brackets nor separators inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ note: `${'['.repeat(1000)} \\" ${'{,:'.repeat(1000)}"` });
    expect(jsonBoundsProblem(text, { maxDepth: 2, maxValues: 3 })).toBeNull();
    expect(jsonBoundsProblem('{"a":"b","c":"d"}', { maxDepth: 2, maxValues: 3 })).toBe('more than 3 values');
  });
});
