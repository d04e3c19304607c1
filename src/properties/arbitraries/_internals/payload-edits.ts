import type { FieldTable, Operation } from '../../../contract/payloads/field-table.ts';
import type { RuleId } from '../../../contract/rules.ts';

type Payload = Readonly<Record<string, unknown>>;

/** `payload` without `keys`. */
export function omit(payload: Payload, ...keys: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...payload };
  for (const key of keys) delete copy[key];
  return copy;
}

/** The fields a field table requires on `operation`, each with the rule its absence breaks. */
export function requiredFields(table: FieldTable, operation: Operation): Array<{ readonly field: string; readonly rule: RuleId }> {
  return Object.entries(table).flatMap(([field, spec]) =>
    spec.requiredOn.includes(operation) && spec.requiredRule ? [{ field, rule: spec.requiredRule }] : [],
  );
}

/** Keeps only defined entries, in the order given (so payloads print with a stable key order). */
export function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}
