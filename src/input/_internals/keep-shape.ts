import type { z } from 'zod';

/**
 * What of a JSON document a reader keeps, so a file of gigabytes is read in a few megabytes: an
 * object's named fields, an array's items, a scalar, or a value whole. Everything else is skipped
 * as it streams past (src/input/_internals/json-scanner.ts).
 */
export type KeepShape =
  /** The value whatever it is (a schema this reader does not look into: a union, a record, unknown). */
  | { readonly kind: 'whole' }
  /** A string, number, boolean or null; an object or array found here is kept empty, for the schema to refuse. */
  | { readonly kind: 'scalar' }
  /** These fields of an object, and its other fields by `others` (null: dropped, as zod strips them). */
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, KeepShape>; readonly others: KeepShape | null }
  | { readonly kind: 'array'; readonly items: KeepShape };

const WHOLE: KeepShape = { kind: 'whole' };
const SCALAR: KeepShape = { kind: 'scalar' };

/** The zod types whose value is one scalar (or none: `never` keeps what it refuses small). */
const SCALARS: ReadonlySet<string> = new Set(['string', 'number', 'int', 'boolean', 'bigint', 'null', 'undefined', 'enum', 'literal', 'nan', 'template_literal', 'never', 'void', 'date']);

/** The zod types that only wrap another (`optional`, `nullable`, ...): the wrapped type says what to keep. */
const WRAPPERS: ReadonlySet<string> = new Set(['optional', 'nullable', 'nonoptional', 'default', 'prefault', 'catch', 'readonly']);

interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
}

/**
 * What a document must keep for `schema` to parse it as it would parse the whole document: the
 * fields its objects name (unknown fields are dropped, as zod's default object strips them; a
 * strict or loose object keeps them by its catchall), the items of its arrays, its scalars. A type
 * it does not look into is kept whole, so the shape never keeps less than the schema reads.
 */
export function keepShapeOf(schema: z.ZodType): KeepShape {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (WRAPPERS.has(def.type) && def.innerType) return keepShapeOf(def.innerType);
  if (def.type === 'pipe' && def.in) return keepShapeOf(def.in);
  if (SCALARS.has(def.type)) return SCALAR;
  if (def.type === 'array' && def.element) return { kind: 'array', items: keepShapeOf(def.element) };
  if (def.type === 'object' && def.shape) {
    const fields = new Map(Object.entries(def.shape).map(([key, field]) => [key, keepShapeOf(field)] as const));
    return { kind: 'object', fields, others: def.catchall ? keepShapeOf(def.catchall) : null };
  }
  return WHOLE;
}
