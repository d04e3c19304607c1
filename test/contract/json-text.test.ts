import { describe, expect, it } from 'vitest';
import { jsonText, parseJsonExact } from '../../src/contract/json-text.ts';

describe('JSON with its integers kept exact', () => {
  it('reads an integer beyond 2^53 as a BigInt, exactly, and everything else as JSON.parse does', () => {
    const text = '{"id": 9007199254740993, "neg": -9007199254740993, "safe": 9007199254740991, "float": 1.5e300, "digits": "9007199254740993", "escaped": "a\\"12345678901234567890"}';
    expect(parseJsonExact(text)).toEqual({ id: 9007199254740993n, neg: -9007199254740993n, safe: 9007199254740991, float: 1.5e300, digits: '9007199254740993', escaped: 'a"12345678901234567890' });
    expect(JSON.parse(text).id).toBe(9007199254740992); // what JSON.parse would have carried back
  });

  it('parses text without such integers exactly as JSON.parse, and throws on malformed text', () => {
    for (const text of ['[]', '{"a":[1,2,{"b":null}]}', '"x"', '12345678901234567.5', '1e400']) expect(parseJsonExact(text)).toEqual(JSON.parse(text));
    expect(() => parseJsonExact('{"a": 12345678901234567890')).toThrow(SyntaxError);
  });

  it('is not fooled by a string that spells the marker it uses', () => {
    const text = '{"s": "\\u0000int:abc:9007199254740993", "n": 9007199254740993}';
    expect(parseJsonExact(text)).toEqual({ s: '\u0000int:abc:9007199254740993', n: 9007199254740993n });
  });

  it('writes a BigInt as its bare digits, and the rest as JSON.stringify does', () => {
    expect(jsonText({ ids: [9007199254740993n, 2], s: '\u0000big:x:0' })).toBe('{"ids":[9007199254740993,2],"s":"\\u0000big:x:0"}');
    expect(jsonText({ a: 1 }, 2)).toBe(JSON.stringify({ a: 1 }, null, 2));
    expect(jsonText(undefined)).toBeUndefined();
    const value = { id: -123456789012345678901234567890n };
    expect(parseJsonExact(jsonText(value))).toEqual(value);
  });
});
