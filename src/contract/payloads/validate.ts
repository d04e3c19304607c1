import type { FieldSpec, FieldTable, Operation } from './field-table.ts';
import type { Violation } from '../violation.ts';
import type { RuleId } from '../rules.ts';

/** True when `body` is a JSON object (not an array, not null). */
export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** The violations of one field's value against its spec: requirement, JSON type, then formats. */
export function fieldViolations(name: string, spec: FieldSpec, value: unknown, operation: Operation): Violation[] {
  const required = spec.requiredOn.includes(operation);
  if (value === undefined) {
    return required && spec.requiredRule
      ? [{ ruleId: spec.requiredRule, field: name, message: `${name} is required` }]
      : [];
  }
  if (value === null) {
    if (spec.nullable) return [];
    const ruleId: RuleId = required && spec.requiredRule ? spec.requiredRule : spec.typeRule;
    return [{ ruleId, field: name, message: `${name} must not be null` }];
  }
  const typed = spec.type.safeParse(value);
  if (!typed.success) {
    return [{ ruleId: spec.typeRule, field: name, message: `${name}: ${typed.error.issues[0]?.message ?? 'wrong type'}` }];
  }
  return spec.formats
    .filter((check) => !check.test(typed.data as never))
    .map((check) => ({ ruleId: check.rule, field: name, message: `${name}: ${check.message}` }));
}

/** The violations of every field of `table` in `body` for the given operation. Unknown keys are ignored. */
export function tableViolations(table: FieldTable, body: Readonly<Record<string, unknown>>, operation: Operation): Violation[] {
  return Object.entries(table).flatMap(([name, spec]) => fieldViolations(name, spec, body[name], operation));
}
