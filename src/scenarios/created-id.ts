import { locateRecord } from './json-path.ts';
import type { Profile } from '../target/profile.ts';

const isId = (v: unknown): v is number | string => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v.length > 0);

/** Resolves a JSON pointer (RFC 6901) in `json`. */
export function resolvePointer(json: unknown, pointer: string): unknown {
  let value = json;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object') return undefined;
    value = Array.isArray(value) ? value[Number(key)] : (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The ID of a created resource in a create response. The spec does not show the records, so by
 * default it is an `id` at the top level, or one envelope key deep (`{items: {id}}`, `{data: {id}}`,
 * or a one-element array there). The profile's `id_pointer` overrides.
 */
export function createdId(json: unknown, profile: Profile): number | string | undefined {
  if (profile.id_pointer) {
    const value = resolvePointer(json, profile.id_pointer);
    return isId(value) ? value : undefined;
  }
  const record = locateRecord(json) as { id?: unknown } | undefined;
  return isId(record?.id) ? record.id : undefined;
}
