import { resolvePointer } from '../contract/json-pointer.ts';
import { locateRecord } from './locate.ts';
import { asExactInteger } from './same-meaning.ts';
import type { Profile } from '../profile/profile.ts';

/**
 * The ID of a record the API creates, as clockcheck carries it: a number, or a BigInt where the
 * target wrote an integer beyond 2^53 (contract/json-text.ts reads those exactly, and writes them
 * back as bare digits). Paths put it in as its digits, bodies as a JSON integer.
 */
export type RecordId = number | bigint;

/** At most this many characters of a value that is not an ID are shown (escaped) in a finding or reason. */
const SHOWN_CHARACTERS = 80;

/**
 * The integer a value means as an ID, or null: an integer (`42`, `-7`, a BigInt beyond 2^53), or a
 * string of decimal digits with an optional minus (`"42"` reads as 42). Whatever reads as an integer
 * is one by meaning (§4: the path parameters are integers, §2.3/§4.4 the references to records);
 * anything else (`"日本"`, `"1 && x"`, `"1\nx"`, `1.5`, `""`) is not, and no request carries it.
 */
export function readId(value: unknown): RecordId | null {
  // An ID is written plainly: the digits alone, no sign but a minus, no spaces (asExactInteger reads more).
  if (typeof value === 'string' && !/^-?\d{1,400}$/.test(value)) return null;
  const integer = asExactInteger(value);
  if (integer === null) return null;
  return Number.isSafeInteger(Number(integer)) ? Number(integer) : integer;
}

/** A value the target sent, as a finding or a reason shows it: JSON-escaped (control characters, quotes), cut at 80 characters. */
export function shownValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  // JSON.stringify leaves U+2028/2029 and the C1 controls as they are: a terminal line must not break on them.
  text = text.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}… (${text.length} characters)` : text;
}

/** What a create answer says of its record's ID. */
export type CreatedIdReading =
  /** An integer by meaning: carried back exactly. */
  | { readonly kind: 'id'; readonly id: RecordId }
  /** An `id` that is not an integer by meaning: `shown` is the value, escaped. */
  | { readonly kind: 'not-integer'; readonly value: unknown; readonly shown: string }
  /** No ID where the record would be (the spec does not show these answers: nothing to judge). */
  | { readonly kind: 'absent' };

/** The resources the API creates, by what POST path creates them. */
export type CreatedKind = 'user' | 'schedule' | 'timesheet' | 'break';

/** The resource a POST to `path` (relative to the API prefix, or a full URL) creates, if it is one of the API's creates (§4.1–§4.4). */
export function createdKindOf(path: string): CreatedKind | undefined {
  const match = /\/(users|schedules|timesheets|breaks)\/?(?:[?#].*)?$/.exec(path);
  return match ? (({ users: 'user', schedules: 'schedule', timesheets: 'timesheet', breaks: 'break' }) as const)[match[1] as 'users'] : undefined;
}

/**
 * The ID a create answer gives its record. A break's answer is the one §4.4 fixes: `{items, message}`
 * with the break in `items` (an object or a one-element array), whatever the profile says of the
 * other creates. The other records are not shown (§4.1–§4.3): the profile's `id_pointer` is looked at
 * first; without it (or where the body does not have it) an `id` at the top level, or one envelope
 * key deep (`{items: {id}}`, `{data: {id}}`, or a one-element array there).
 */
export function readCreatedId(json: unknown, profile: Pick<Profile, 'id_pointer'>, kind?: CreatedKind): CreatedIdReading {
  let value: unknown;
  if (kind === 'break') value = breakRecord(json)?.id;
  else {
    if (profile.id_pointer) value = resolvePointer(json, profile.id_pointer);
    if (value === undefined || value === null) value = (locateRecord(json) as { id?: unknown } | undefined)?.id;
  }
  if (value === undefined || value === null) return { kind: 'absent' };
  const id = readId(value);
  return id === null ? { kind: 'not-integer', value, shown: shownValue(value) } : { kind: 'id', id };
}

/** The ID of a created resource (readCreatedId), when it is one a request can carry; else undefined. */
export function createdId(json: unknown, profile: Pick<Profile, 'id_pointer'>, kind?: CreatedKind): RecordId | undefined {
  const read = readCreatedId(json, profile, kind);
  return read.kind === 'id' ? read.id : undefined;
}

/** Why a create answer names no record a request can carry, for a check's reason; null when it does. */
export function unusableIdReason(read: CreatedIdReading): string | null {
  if (read.kind === 'id') return null;
  if (read.kind === 'absent') return 'its answer names no ID';
  return `the target gave the created record the ID ${read.shown}, which is not an integer (ID-INTEGER), so no request can name it`;
}

/** The created break of a POST /breaks answer (§4.4): `items`, an object or a one-element array. */
function breakRecord(json: unknown): { id?: unknown } | undefined {
  const items = (json as { items?: unknown } | null)?.items;
  const record = Array.isArray(items) && items.length === 1 ? items[0] : items;
  return typeof record === 'object' && record !== null && !Array.isArray(record) ? (record as { id?: unknown }) : undefined;
}
