import { z } from 'zod';
import { isRuleId, type RuleId } from '../contract/rules.ts';
import { locateItems } from '../records/locate.ts';
import { recordReading } from '../records/record-reading.ts';
import type { Profile } from '../profile/profile.ts';

/** Parses a check's args with its zod schema; a bad arg is a suite bug, reported with the check's name. */
export function parseArgs<S extends z.ZodType>(check: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`check ${check}: args.${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export const ruleArg = z.string().refine(isRuleId, 'not a rule ID').transform((id) => id as RuleId);
export const pathArg = z.string().startsWith('/');
export const queryArg = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({});
export const idList = z.array(z.union([z.number(), z.string()])).default([]);

/** Query values as the client takes them. */
export function queryOf(query: Readonly<Record<string, string | number | boolean>>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]));
}

/** Items of a list response (the profile's `list_items`, else `items`, else the only array-valued key), or null when the body has none. */
export function itemsOf(json: unknown, profile: Pick<Profile, 'record_fields' | 'list_items' | 'id_pointer'>): unknown[] | null {
  return locateItems(json, recordReading(profile)) ?? null;
}

/** An item's `id` as a comparable key, or null. */
export function idOf(item: unknown): string | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}
