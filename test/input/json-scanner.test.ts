import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonScanner } from '../../src/input/_internals/json-scanner.ts';
import { MAX_JSON_DEPTH } from '../../src/input/_internals/json-containers.ts';
import { JsonTextError, KeptTooLargeError } from '../../src/input/_internals/json-scan-errors.ts';
import { keepShapeOf, type KeepShape } from '../../src/input/_internals/keep-shape.ts';

const WHOLE: KeepShape = { kind: 'whole' };

/** Scans `text` cut into chunks at `cuts` (byte offsets), as a file read in pieces would arrive. */
function scan(text: string | Buffer, shape: KeepShape = WHOLE, cuts: readonly number[] = [], maxKeptBytes = 1 << 20): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const scanner = new JsonScanner(shape, maxKeptBytes);
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
    scanner.write(bytes.subarray(from, cut));
    from = cut;
  }
  scanner.write(bytes.subarray(from));
  return scanner.end();
}

function outcome(run: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof JsonTextError) return { ok: false };
    throw error;
  }
}

/** Bytes JSON gives meaning to, and some it refuses, to break a valid text with. */
const BREAKERS = ['"', '\\', '{', '}', '[', ']', ',', ':', '-', '.', 'e', '0', '1', 't', 'n', ' ', '\n', '\t', '\u0001', '\u007f', 'é', 'x'];

describe('JsonScanner', () => {
  it('reads any JSON value as JSON.parse does, however the text is cut into chunks (multi-byte characters too)', () => {
    const text = fc.tuple(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), fc.constantFrom(undefined, 1, 2, '\t')).map(([value, indent]) => JSON.stringify(value, null, indent));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (json, cuts) => {
        expect(scan(json, WHOLE, cuts)).toStrictEqual(JSON.parse(json));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses exactly what JSON.parse refuses: a valid text with one byte inserted, removed or replaced', () => {
    const mutated = fc
      .tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.constantFrom('insert', 'remove', 'replace'), fc.constantFrom(...BREAKERS))
      .map(([value, at, how, byte]) => {
        const json = JSON.stringify(value, null, 1);
        const i = at % (json.length + 1);
        return json.slice(0, i) + (how === 'remove' ? '' : byte) + json.slice(how === 'insert' ? i : i + 1);
      });
    fc.assert(
      fc.property(mutated, fc.array(fc.nat(), { maxLength: 3 }), (json, cuts) => {
        expect(outcome(() => scan(json, WHOLE, cuts))).toStrictEqual(outcome(() => JSON.parse(json)));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['', 'empty'],
    ['  \n', 'nothing but whitespace (3 bytes)'],
    ['{"a": "b', 'cut short at byte 8, inside a string'],
    ['{"a": [1, 2', 'cut short at byte 11, 2 object(s) or array(s) still open'],
    ['[tru', 'cut short at byte 4, inside a literal'],
    ['[1, 2,]', 'unexpected "]" at byte 6'],
    ['{"a": 01}', 'unexpected "1" in a number at byte 7'],
    ['["a\u0001"]', 'a control character (byte 0x01) inside a string at byte 3'],
    ['["\\x"]', 'an invalid escape \\x at byte 3'],
    ['{} {}', '"{" after the document\'s value at byte 3'],
  ])('says where %j stops being JSON: %s', (text, message) => {
    expect(() => scan(text)).toThrow(expect.objectContaining({ message }));
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, where JSON.parse would recurse`, () => {
    expect(() => scan('['.repeat(MAX_JSON_DEPTH + 1))).toThrow(`it nests deeper than ${MAX_JSON_DEPTH} levels at byte ${MAX_JSON_DEPTH}`);
    expect(scan(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeInstanceOf(Array);
  });

  it('keeps only what the shape names: the named fields of objects, the items of arrays', () => {
    const Schema = z.object({ id: z.string(), tags: z.array(z.string()), findings: z.array(z.object({ ruleId: z.string() })), note: z.string().nullable().optional() });
    const text = JSON.stringify({ id: 'a', exchanges: [{ body: 'x'.repeat(1000) }], tags: ['t'], findings: [{ ruleId: 'R', actual: { deep: [1] } }], note: null });
    expect(scan(text, keepShapeOf(Schema))).toStrictEqual({ id: 'a', tags: ['t'], findings: [{ ruleId: 'R' }], note: null });
  });

  it('keeps a container where the schema wants something else empty, so the schema names the mismatch and nothing large is held', () => {
    const Schema = z.object({ id: z.string(), checks: z.array(z.object({ id: z.string() })) });
    const kept = scan(JSON.stringify({ id: { huge: 'x'.repeat(10_000) }, checks: { a: [1, 2, 3] } }), keepShapeOf(Schema), [], 1000);
    expect(kept).toStrictEqual({ id: {}, checks: {} });
    expect(Schema.safeParse(kept).error?.issues.map((i) => i.path.join('.'))).toEqual(['id', 'checks']);
  });

  it('keeps a field named __proto__ as a field, as JSON.parse does, never as a prototype', () => {
    const kept = scan('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual(['__proto__']);
    expect((kept as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('skips a string of megabytes under a bound of a kilobyte, and refuses to keep one', () => {
    const big = JSON.stringify({ id: 'a', body: 'é'.repeat(4 << 20) });
    expect(scan(big, keepShapeOf(z.object({ id: z.string() })), [1000, 4097], 1024)).toStrictEqual({ id: 'a' });
    expect(() => scan(big, keepShapeOf(z.object({ body: z.string() })), [], 1024)).toThrow(KeptTooLargeError);
  });

  it('reads a text with a byte order mark, as an editor may save it', () => {
    expect(scan(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": 1}')]))).toStrictEqual({ a: 1 });
  });
});
