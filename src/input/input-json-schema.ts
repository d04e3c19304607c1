import { z } from 'zod';
import type { InputFileKind } from './schema-modeline.ts';

/** A JSON Schema document: an object of keywords. */
export type JsonSchema = Record<string, unknown>;

/**
 * The formats JSON Schema 2020-12 defines. zod writes some of its string checks as formats of its
 * own (`starts_with`), which a validator in strict mode refuses and an editor ignores; the pattern
 * zod writes beside them says the same, so they are left out.
 */
const JSON_SCHEMA_FORMATS: ReadonlySet<string> = new Set([
  'date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6',
  'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
]);

const zodType = (schema: unknown): string | undefined => (schema as { _zod?: { def?: { type?: string } } })._zod?.def?.type;

/**
 * A BigInt is how the loader keeps an integer beyond 2^53 exactly (an ID); in YAML it is an integer
 * like any other. Nothing else zod has no JSON form for is in a file a user writes: it fails here.
 */
function asWritten(ctx: { zodSchema: unknown }): JsonSchema | undefined {
  return zodType(ctx.zodSchema) === 'bigint' ? { type: 'integer' } : undefined;
}

const isInteger = (schema: JsonSchema) => schema.type === 'integer';
const isAnyInteger = (schema: JsonSchema) => isInteger(schema) && Object.keys(schema).length === 1;

/** What zod writes, said as an editor reads it: standard formats only, and an ID one integer. */
function forEditors(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const { jsonSchema } = ctx;
  if (typeof jsonSchema.format === 'string' && !JSON_SCHEMA_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
  // An ID, a number or a BigInt (integers both, in YAML): the BigInt's branch is any integer, so the
  // union is exactly that, said once (an editor would offer "integer | integer").
  const anyOf = jsonSchema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.every(isInteger) && anyOf.some(isAnyInteger)) {
    delete jsonSchema.anyOf;
    jsonSchema.type = 'integer';
  }
}

/**
 * The JSON Schema (2020-12) of a file a user writes, generated from the zod schema that validates
 * it (never written by hand): its input side, what the user types, so a key with a default is
 * optional and a duration is the text `60s`, not its milliseconds; every object strict, so an
 * editor flags a misspelt key; titles and descriptions from the schema's `.describe()` and
 * `.meta()`. What zod checks in code (a refinement such as "an IANA timezone name", a rule across
 * keys) has no JSON Schema form: the JSON Schema is weaker than the loader, never stricter.
 */
export function inputJsonSchema(schema: z.ZodType, kind: InputFileKind): JsonSchema {
  const { $schema, title, description, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    // A piece used twice is written out where it is used, not a `$ref` to a `__schema0` a reader
    // must look up: only what has a name of its own (`$defs/rule_id`) is shared.
    reused: 'inline',
    unrepresentable: asWritten,
    override: forEditors,
  }) as JsonSchema;
  return { $schema, $id: `urn:clockcheck:${kind}-schema`, title, description, ...rest };
}
