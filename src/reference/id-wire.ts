/**
 * How the reference server writes the IDs of the records the API creates (users, schedules,
 * timesheets, breaks) and reads them back, where its store keeps positive integers 1, 2, 3, …:
 * - `integer` (default): as stored;
 * - `string`: a decimal string, `"42"`, in the records the spec does not show (users, schedules,
 *   timesheets; a break's fields are §2.4's integers); paths and bodies take either form;
 * - `negative`: `n − 1 000 000`, negative integers (order kept);
 * - `beyond-2^53`: `2^53 + n`, integers JSON.parse would round (order kept);
 * - `{ literal }`: every create answer gives its record the ID `literal`, whatever was stored (a
 *   target that sends hostile text where an integer belongs: `"1\r\nX-Injected: yes"`, `"日本"`).
 * The first four are integers by meaning and conform (§4.1 schedule_id, §4.2 userId, §4.4
 * timesheet_id, §2.4 break id); the literal does not unless it reads as one.
 */
export type IdWire = 'integer' | 'string' | 'negative' | 'beyond-2^53' | { readonly literal: string };

/** The named forms (the literal is for tests), for `serve --ids`. */
export const ID_WIRE_NAMES = ['integer', 'string', 'negative', 'beyond-2^53'] as const;

/** How each named form writes the record stored as n, for `serve`'s description. */
export const ID_WIRE_FORMS: Readonly<Record<(typeof ID_WIRE_NAMES)[number], string>> = {
  integer: 'n',
  string: '"n" (a break\'s fields stay integers)',
  negative: 'n − 1000000',
  'beyond-2^53': '2^53 + n',
};

const NEGATIVE_OFFSET = 1_000_000;
const LARGE_BASE = 2n ** 53n;
/** Stands for an ID that names no record (a form this wire never writes). */
const NO_RECORD = 0;

/** Fields that hold the ID of a record the API creates, one (`user_id`) or many (`user_ids`, `ids`), in either spelling. */
const ONE_ID = new Set(['id', 'user_id', 'userId', 'timesheet_id', 'timesheetId', 'assigned_by', 'assignedBy']);
const MANY_IDS = new Set(['user_ids', 'userIds', 'ids']);

/** The ID `n` as `wire` writes it in a body: a number, a string, or a BigInt (written as bare digits). */
export function wireId(wire: IdWire, n: number, record: 'break' | 'other' = 'other'): number | string | bigint {
  if (typeof wire === 'object') return n;
  switch (wire) {
    case 'integer':
      return n;
    case 'string':
      return record === 'break' ? n : String(n);
    case 'negative':
      return n - NEGATIVE_OFFSET;
    case 'beyond-2^53':
      return LARGE_BASE + BigInt(n);
  }
}

/** The stored ID a value of `wire` names (from a path or a body), NO_RECORD when it is an integer of another form, or null when it is no integer at all. */
export function storedId(wire: IdWire, value: unknown): number | null {
  const integer = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : typeof value === 'string' && /^-?\d{1,40}$/.test(value) ? BigInt(value) : null;
  if (integer === null) return null;
  if (typeof value === 'string' && wire !== 'string' && typeof wire !== 'object') return null; // only the string form reads digits in a body
  const stored = typeof wire === 'object' || wire === 'integer' || wire === 'string' ? integer : wire === 'negative' ? integer + BigInt(NEGATIVE_OFFSET) : integer - LARGE_BASE;
  return stored > 0n && stored <= BigInt(Number.MAX_SAFE_INTEGER) && (wire !== 'negative' || integer < 0n) ? Number(stored) : NO_RECORD;
}

/** A response body with every created record's ID (and every reference to one) in `wire`'s form. */
export function writeIds(wire: IdWire, body: unknown, record: 'break' | 'other'): unknown {
  if (wire === 'integer' || typeof wire === 'object') return body;
  const walk = (value: unknown, key: string | null): unknown => {
    if (Array.isArray(value)) return value.map((v) => (key !== null && MANY_IDS.has(key) && typeof v === 'number' ? wireId(wire, v, record) : walk(v, null)));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    // A break's timesheet_id is §2.4's integer too; in the string form only the records the spec does not show change.
    return key !== null && ONE_ID.has(key) && typeof value === 'number' && Number.isSafeInteger(value) ? wireId(wire, value, key === 'timesheet_id' ? 'break' : record) : value;
  };
  return walk(body, null);
}

/** A request body with the IDs the client sent in `wire`'s form read back to stored IDs (anything else as sent, for validation to judge). */
export function readIds(wire: IdWire, body: unknown): unknown {
  if (wire === 'integer' || typeof wire === 'object' || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const read = (v: unknown) => storedId(wire, v) ?? v;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, ONE_ID.has(k) ? read(v) : MANY_IDS.has(k) && Array.isArray(v) ? v.map(read) : v]));
}

/** A path parameter in `wire`'s form as the stored ID's digits (a value that names no record stays as it is, or becomes one that names none). */
export function readPathId(wire: IdWire, raw: string): string {
  if (wire === 'integer' || typeof wire === 'object') return raw;
  const stored = storedId(wire, /^-?\d{1,40}$/.test(raw) ? BigInt(raw) : raw);
  return stored === null ? raw : String(stored);
}

/** A create answer with its record's ID replaced by the literal (under `{ literal }`): `items.id`, `data.id`, `id`, or `items[0].id`. */
export function literalCreatedId(wire: IdWire, body: unknown): unknown {
  if (typeof wire !== 'object' || typeof body !== 'object' || body === null) return body;
  const replace = (record: unknown): unknown => (typeof record === 'object' && record !== null && !Array.isArray(record) && 'id' in record ? { ...record, id: wire.literal } : record);
  const envelope = body as Record<string, unknown>;
  for (const key of ['items', 'data']) {
    const inner = envelope[key];
    if (Array.isArray(inner)) return { ...envelope, [key]: inner.map(replace) };
    if (typeof inner === 'object' && inner !== null) return { ...envelope, [key]: replace(inner) };
  }
  return replace(body);
}
