import { z } from 'zod';
import { naiveDateTime, offsetDateTime } from '../../contract/primitives.ts';
import { OFFSET_DATETIME_SCHEMA } from '../../contract/formats/json-schema.ts';
import { RULES, type RuleId } from '../../contract/rules.ts';

/** A JSON value of the document: an object of keywords. */
export type Json = Record<string, unknown>;

/** The offset at the end of OFFSET_DATETIME_SCHEMA's pattern: `±HH:MM`, then the end. */
const OFFSET_SUFFIX = '[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]$';

/**
 * §2.4 `created_at`/`updated_at`: `YYYY-MM-DDTHH:MM:SS` without offset, a real date and time
 * (isNaiveDateTime): the offset datetime's pattern without its offset.
 */
export const NAIVE_DATETIME_PATTERN = `${OFFSET_DATETIME_SCHEMA.pattern!.slice(0, -OFFSET_SUFFIX.length)}$`;

/**
 * What zod cannot say of a response fragment, said for the tools: the datetime refinements as the
 * patterns of their formats, and a one-element tuple (`items` of a created break, §4.4) as an
 * array of that item with one element, the same in JSON Schema 2020-12 and in the draft-07
 * validators Postman and Portman run (where `prefixItems` is unknown and `items: false` refuses all);
 * a BigInt (an ID read exactly beyond 2^53) as the JSON integer it is on the wire.
 */
export function sayForTools(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const { zodSchema, jsonSchema } = ctx;
  // An ID read exactly beyond 2^53 (a BigInt in the harness) is a JSON integer on the wire.
  if ((zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'bigint') jsonSchema.type = 'integer';
  // A number or a BigInt (responses.ts `responseId`): one integer, without the double's bounds zod writes.
  const anyOf = jsonSchema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.every((s: { type?: unknown }) => s.type === 'integer')) {
    delete jsonSchema.anyOf;
    jsonSchema.type = 'integer';
  }
  if (zodSchema === offsetDateTime) jsonSchema.pattern = OFFSET_DATETIME_SCHEMA.pattern;
  if (zodSchema === naiveDateTime) jsonSchema.pattern = NAIVE_DATETIME_PATTERN;
  const prefix = jsonSchema.prefixItems;
  if (Array.isArray(prefix) && prefix.length === 1 && jsonSchema.items === false) {
    delete jsonSchema.prefixItems;
    jsonSchema.items = prefix[0];
  }
}

/** A zod type as JSON Schema 2020-12 (without the `$schema` line, which OpenAPI 3.1 sets for the whole document). */
export function jsonSchemaOf(type: z.ZodType): Json {
  const { $schema: _, ...schema } = z.toJSONSchema(type, { target: 'draft-2020-12', unrepresentable: 'any', override: sayForTools }) as Json;
  return schema;
}

const RULE_ORDER = new Map(RULES.map((r, i) => [r.id, i]));

/** Rule IDs once each, in the catalog's order. */
export function sortedUnique(ids: readonly RuleId[]): RuleId[] {
  return [...new Set(ids)].sort((a, b) => (RULE_ORDER.get(a) ?? 0) - (RULE_ORDER.get(b) ?? 0));
}
