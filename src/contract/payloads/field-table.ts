import { z } from 'zod';
import type { RuleId } from '../rules.ts';

/** Which operations a field is unconditionally required on. */
export type Operation = 'create' | 'update';

/** A format check on a field's value, beyond its JSON type, with the rule it enforces. */
export interface FormatCheck {
  readonly rule: RuleId;
  readonly test: (value: never) => boolean;
  readonly message: string;
  /**
   * The same check as JSON Schema keywords (a pattern, an enum, a length), for the OpenAPI document;
   * src/contract/formats/json-schema.ts and the tests keep the two in agreement.
   */
  readonly schema: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
}

/** One field of a payload, as the spec's field table gives it. */
export interface FieldSpec<S extends z.ZodType = z.ZodType> {
  /** The JSON type (zod), without format refinements. */
  readonly type: S;
  /** The operations on which the field must be present. */
  readonly requiredOn: readonly Operation[];
  readonly nullable: boolean;
  /** Rule broken when the field is absent (or null, when not nullable) where required. */
  readonly requiredRule: RuleId | null;
  /** Rule broken when the value has another JSON type. */
  readonly typeRule: RuleId;
  readonly formats: readonly FormatCheck[];
}

export type FieldTable = Readonly<Record<string, FieldSpec>>;

interface FieldOptions {
  requiredOn?: readonly Operation[];
  nullable?: boolean;
  requiredRule?: RuleId;
  formats?: readonly FormatCheck[];
}

/** Declares a field: its JSON type, the rule its type belongs to, and optional requirement and formats. */
export function field<S extends z.ZodType>(type: S, typeRule: RuleId, options: FieldOptions = {}): FieldSpec<S> {
  return {
    type,
    typeRule,
    requiredOn: options.requiredOn ?? [],
    nullable: options.nullable ?? false,
    requiredRule: options.requiredRule ?? null,
    formats: options.formats ?? [],
  };
}

/** A format check built from a predicate over strings (or other values) and its JSON Schema keywords. */
export function format<T>(rule: RuleId, test: (value: T) => boolean, message: string, schema: FormatCheck['schema']): FormatCheck {
  return { rule, test: test as (value: never) => boolean, message, schema };
}
