import type { ReferenceServer } from '../../../src/reference/server.ts';
import { baselines } from '../reference-client.ts';
import { BODY_ROUTES, PREFIX, type HostileRequest } from './hostile-request.ts';

/** A deterministic byte stream (mulberry32), so "random" binary bodies are the same every run. */
function bytes(length: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

const repeat = (text: string, times: number) => text.repeat(times);

/** A valid body for each body route, from the reference seed. */
function validBodies(server: ReferenceServer): Record<string, Record<string, unknown>> {
  const b = baselines(server);
  return {
    'POST /users': b.user(),
    'PUT /users/1': { first_name: 'Edit', phone: '555-0100' },
    'POST /schedules': b.schedule(),
    'PUT /schedules/1': { event_pid: 1, title: 'Renamed' },
    'POST /timesheets': b.timesheet(),
    'POST /breaks': b.break(),
    'POST /webhooks/subscription': { url: 'https://hooks.clockcheck.test/in' },
  };
}

/** Whole bodies that are not a JSON object: broken, binary, huge, deep, wide, or the wrong JSON type. */
function wholeBodies(valid: string): Array<[label: string, body: string | Uint8Array]> {
  return [
    // truncated JSON
    ...[1, 2, Math.floor(valid.length / 2), valid.length - 1].map((n): [string, string] => [`valid body cut to ${n} chars`, valid.slice(0, n)]),
    ['lone {', '{'],
    ['lone [', '['],
    ['unterminated string', '"abc'],
    ['key without value', '{"a":'],
    // not JSON
    ['plain text', 'hello, server'],
    ['XML', '<?xml version="1.0"?><user><first_name>a</first_name></user>'],
    ['form encoding', 'first_name=a&last_name=b'],
    ['single quotes', "{'a': 1}"],
    ['trailing comma', '{"a":1,}'],
    ['comment', '// note\n{}'],
    ['NaN', 'NaN'],
    ['undefined', 'undefined'],
    ['BOM then JSON', `\ufeff${valid}`],
    ['two JSON documents', `${valid}${valid}`],
    ['JSON then garbage', `${valid}xyz`],
    // binary
    ['4 KB of random bytes', bytes(4096, 1)],
    ['64 KB of random bytes', bytes(65536, 2)],
    ['NUL bytes', new Uint8Array(256)],
    ['invalid UTF-8 inside a string', Buffer.concat([Buffer.from('{"first_name":"'), Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xff]), Buffer.from('"}')])],
    ['gzip magic bytes', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03])],
    ['UTF-16LE JSON', Buffer.from(valid, 'utf16le')],
    // huge
    ['a 100 KB string in every field', JSON.stringify(Object.fromEntries(Object.keys(JSON.parse(valid)).map((k) => [k, repeat('a', 100_000)])))],
    ['a 100 KB key', `{${JSON.stringify(repeat('k', 100_000))}:1}`],
    ['a 900 KB string (under the 1 MiB body limit)', JSON.stringify({ first_name: repeat('x', 900_000) })],
    ['a 2 MB body (over the 1 MiB body limit)', JSON.stringify({ first_name: repeat('x', 2_000_000) })],
    // deep
    ['10 000 unclosed [', repeat('[', 10_000)],
    ['10 000 nested arrays', `${repeat('[', 10_000)}${repeat(']', 10_000)}`],
    ['100 000 nested arrays', `${repeat('[', 100_000)}${repeat(']', 100_000)}`],
    ['10 000 nested objects', `${repeat('{"a":', 10_000)}1${repeat('}', 10_000)}`],
    // wide
    ['an array of 100 000 values', `[${Array(100_000).fill('0').join(',')}]`],
    ['an object of 60 000 keys', `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":0`).join(',')}}`],
    ['100 000 user_ids', JSON.stringify({ ...JSON.parse(valid), user_ids: Array.from({ length: 100_000 }, (_, i) => i) })],
    // the wrong JSON type where an object is expected
    ['JSON null', 'null'],
    ['JSON array', '[]'],
    ['the body in an array', `[${valid}]`],
    ['JSON string', '"a string"'],
    ['JSON number', '42'],
    ['JSON true', 'true'],
    ['JSON empty object', '{}'],
    // prototype keys
    ['__proto__ key', `{"__proto__":{"admin":true},${valid.slice(1)}`],
    ['constructor and prototype keys', '{"constructor":{"prototype":{"x":1}},"prototype":1,"hasOwnProperty":1,"toString":1}'],
    // empty
    ['empty body', ''],
    ['whitespace body', ' \r\n\t '],
  ];
}

/** Raw JSON values to put in one field at a time: numbers out of range, wrong types, unicode oddities. */
const FIELD_VALUES: ReadonlyArray<[label: string, raw: string]> = [
  ['1e400', '1e400'],
  ['-1e400', '-1e400'],
  ['1e-400', '1e-400'],
  ['-0', '-0'],
  ['a 30-digit integer', '123456789012345678901234567890'],
  ['2^53 + 1', '9007199254740993'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['true', 'true'],
  ['null', 'null'],
  ['an empty array', '[]'],
  ['an object', '{"a":{"b":[1,2]}}'],
  ['an empty string', '""'],
  ['a lone high surrogate', '"\\ud800"'],
  ['a lone low surrogate', '"x\\udc00y"'],
  ['NUL', '"a\\u0000b"'],
  ['RTL and zero-width marks', '"\\u202e\\u200f\\u200b\\ufeffabc"'],
  ['U+2028 and U+2029', '"a\\u2028b\\u2029c"'],
  ['emoji and combining marks', `"😀${'e\u0301'.repeat(500)}"`],
  ['a 10 KB string', JSON.stringify('é'.repeat(10_000))],
  ['10 000 nested arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ['an array holding 10 000 nested arrays', `[1,${'['.repeat(10_000)}${']'.repeat(10_000)}]`],
];

/** `{…}` from entries of raw JSON text, so values JSON.stringify cannot write (1e400, -0) go through. */
const rawObject = (entries: ReadonlyArray<[string, string]>) => `{${entries.map(([k, raw]) => `${JSON.stringify(k)}:${raw}`).join(',')}}`;

/** Valid JSON bodies with a different content type, or none. */
function contentTypes(valid: string): Array<[label: string, type: string | null, body: string]> {
  return [
    ['no content-type', null, valid],
    ['text/plain', 'text/plain', valid],
    ['form encoding', 'application/x-www-form-urlencoded', 'first_name=a&last_name=b&email=c%40d.e'],
    ['multipart', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="first_name"\r\n\r\na\r\n--XyZ--\r\n'],
    ['application/xml', 'application/xml', '<user/>'],
    ['charset utf-16', 'application/json; charset=utf-16', valid],
    ['a malformed content-type', ';;;=/', valid],
  ];
}

/**
 * Garbage bodies for every operation that takes one: whole bodies that are no JSON object, each
 * field of a valid body set to a value out of range, of the wrong type or with odd unicode, a
 * field given twice, and wrong content types.
 */
export function garbageBodyRequests(server: ReferenceServer): HostileRequest[] {
  const valids = validBodies(server);
  return BODY_ROUTES.flatMap(({ method, path }) => {
    const base = valids[`${method} ${path}`] as Record<string, unknown>;
    const valid = JSON.stringify(base);
    const entries = Object.entries(base).map(([k, v]): [string, string] => [k, JSON.stringify(v)]);
    const request = (label: string, body: string | Uint8Array, headers?: Record<string, string | null>): HostileRequest => ({
      category: 'garbage-body',
      label: `${method} ${path}: ${label}`,
      method,
      path: `${PREFIX}${path}`,
      body,
      ...(headers ? { headers } : {}),
    });
    return [
      ...wholeBodies(valid).map(([label, body]) => request(label, body)),
      ...entries.flatMap(([field], i) =>
        FIELD_VALUES.map(([label, raw]) => request(`${label} in ${field}`, rawObject(entries.map((e, j) => (i === j ? [field, raw] : e))))),
      ),
      ...FIELD_VALUES.map(([label, raw]) => request(`${label} in every field`, rawObject(entries.map(([k]) => [k, raw])))),
      ...entries.map(([field]) => request(`${field} given twice, the second a wrong type`, `${valid.slice(0, -1)},${JSON.stringify(field)}:[{}]}`)),
      ...contentTypes(valid).map(([label, type, body]) => request(label, body, { 'content-type': type })),
    ];
  });
}
