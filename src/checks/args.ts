import { z } from 'zod';
import { ruleIdSchema } from '../input/rule-id.ts';
import { isJsonPath, JSON_PATH_FORMS } from '../records/json-path.ts';
import { locateItems } from '../records/locate.ts';
import { recordReadingFor } from '../records/record-reading.ts';
import type { Profile } from '../profile/profile.ts';

/*
 * Argument kinds several checks share. A check declares its `args:` as a zod object
 * (`builtinCheck(Args, run)`, src/checks/context.ts); src/input/arguments.ts parses them.
 */

/** A rule ID of the catalog; a typo gets "did you mean". */
export const ruleArg = ruleIdSchema;
export const pathArg = z.string().startsWith('/');
/** A JSON path of the response (src/records/json-path.ts): `$.items[*]`, `$record`. */
export const jsonPathArg = z.string().refine(isJsonPath, JSON_PATH_FORMS);
export const queryArg = z.record(z.string(), z.union([z.string(), z.number(), z.bigint(), z.boolean()])).default({});
export const idList = z.array(z.union([z.number(), z.bigint(), z.string()])).default([]);

/** Query values as the client takes them. */
export function queryOf(query: Readonly<Record<string, string | number | bigint | boolean>>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : v]));
}

/**
 * Items of a list response (the profile's `list_items`, else `items`, else the only array-valued
 * key), or null when the body has none; of a list the spec shows (`path` under /breaks, §4.4) in `items`, whatever the profile says.
 */
export function itemsOf(json: unknown, profile: Pick<Profile, 'record_fields' | 'list_items' | 'id_pointer'>, path = ''): unknown[] | null {
  return locateItems(json, recordReadingFor(profile, path)) ?? null;
}

/** An item's `id` as a comparable key, or null. */
export function idOf(item: unknown): string | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' || typeof id === 'bigint' ? String(id) : null;
}
