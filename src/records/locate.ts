import { parentPointer, resolvePointer } from '../contract/json-pointer.ts';
import { AUTO_READING, type RecordReading } from './record-reading.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The resource record of a create or edit response, wherever the target put it: the parent of the
 * profile's `id_pointer` when it declares one and the body has it; else the body itself when it has
 * an `id`, else the object (or one-element array) one envelope key deep (`{items: {…}}`, `{data: [{…}]}`).
 * The fallback matters for breaks: §4.4 fixes their envelope (`items`), whatever the others use.
 */
export function locateRecord(json: unknown, reading: RecordReading = AUTO_READING): unknown {
  if (reading.idPointer !== undefined) {
    const record = resolvePointer(json, parentPointer(reading.idPointer));
    if (isObject(record)) return record;
  }
  if (!isObject(json)) return undefined;
  if ('id' in json) return json;
  for (const value of Object.values(json)) {
    const inner = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (isObject(inner) && 'id' in inner) return inner;
  }
  return undefined;
}

/**
 * The items of a list response: at the profile's `list_items` pointer when it declares one and
 * an array is there; else `items`, else the only array-valued top-level key (a bare array is its own items).
 */
export function locateItems(json: unknown, reading: RecordReading = AUTO_READING): unknown[] | undefined {
  if (reading.listItems !== undefined) {
    const declared = resolvePointer(json, reading.listItems);
    if (Array.isArray(declared)) return declared;
  }
  if (!isObject(json)) return Array.isArray(json) ? json : undefined;
  if (Array.isArray(json.items)) return json.items;
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}
