import { resolvePointer } from '../contract/json-pointer.ts';
import { locateRecord } from './locate.ts';
import type { Profile } from '../profile/profile.ts';

const isId = (v: unknown): v is number | string => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v.length > 0);

/**
 * The ID of a created resource in a create response. The spec does not show the records, so by
 * default it is an `id` at the top level, or one envelope key deep (`{items: {id}}`, `{data: {id}}`,
 * or a one-element array there). The profile's `id_pointer` is looked at first; a response that
 * does not have it (a created break keeps the `items` envelope of §4.4) falls back on the default.
 */
export function createdId(json: unknown, profile: Profile): number | string | undefined {
  if (profile.id_pointer) {
    const value = resolvePointer(json, profile.id_pointer);
    if (isId(value)) return value;
  }
  const record = locateRecord(json) as { id?: unknown } | undefined;
  return isId(record?.id) ? record.id : undefined;
}
