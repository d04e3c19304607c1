import type { RuleId } from './rules.ts';
import type { Operation } from './payloads/field-table.ts';
import type { Violation } from './violation.ts';

/**
 * A conditional requirement of the spec, as data: when the trigger holds on the record,
 * the listed fields must be present (and not null).
 */
export interface ConditionalRule {
  readonly rule: RuleId;
  readonly trigger: Trigger;
  readonly requires: readonly string[];
  /** The spec's own words, for messages. */
  readonly because: string;
}

export type Trigger =
  | { readonly kind: 'field-equals'; readonly field: string; readonly value: unknown }
  | { readonly kind: 'field-not-equals'; readonly field: string; readonly value: unknown }
  | { readonly kind: 'operation'; readonly operation: Operation };

/** Spec §2.1 and §4.1: the schedule's conditional rules. */
export const SCHEDULE_CONDITIONS: readonly ConditionalRule[] = [
  {
    rule: 'SCH-TIMES-UNLESS-ALL-DAY',
    trigger: { kind: 'field-not-equals', field: 'all_day', value: true },
    requires: ['start_time', 'end_time'],
    because: 'start_time and end_time are required unless all_day is true',
  },
  {
    rule: 'SCH-REPEAT-FIELDS',
    trigger: { kind: 'field-equals', field: 'repeat', value: true },
    requires: ['repeat_type', 'repeat_end_date'],
    because: 'repeat_type and repeat_end_date are required when repeat is true',
  },
  {
    rule: 'SCH-WEEKLY-WEEKS',
    trigger: { kind: 'field-equals', field: 'repeat_type', value: 'weekly' },
    requires: ['weeks'],
    because: 'weeks is required when repeat_type is weekly',
  },
  {
    rule: 'SCH-UPDATE-EVENT-PID',
    trigger: { kind: 'operation', operation: 'update' },
    requires: ['event_pid'],
    because: 'event_pid is required on update',
  },
];

function triggered(trigger: Trigger, record: Readonly<Record<string, unknown>>, operation: Operation): boolean {
  switch (trigger.kind) {
    case 'field-equals':
      return record[trigger.field] === trigger.value;
    case 'field-not-equals':
      return record[trigger.field] !== trigger.value;
    case 'operation':
      return operation === trigger.operation;
  }
}

/** The conditional rules broken by `record` (the payload, merged over the stored record on update). */
export function conditionalViolations(
  conditions: readonly ConditionalRule[],
  record: Readonly<Record<string, unknown>>,
  operation: Operation,
): Violation[] {
  const violations: Violation[] = [];
  for (const condition of conditions) {
    if (!triggered(condition.trigger, record, operation)) continue;
    for (const name of condition.requires) {
      const value = record[name];
      if (value === undefined || value === null) {
        violations.push({ ruleId: condition.rule, field: name, message: `${name} is missing: ${condition.because}` });
      }
    }
  }
  return violations;
}

/** The fields that the conditional rules require for `record` (used by generators and the server). */
export function conditionallyRequiredFields(
  conditions: readonly ConditionalRule[],
  record: Readonly<Record<string, unknown>>,
  operation: Operation,
): string[] {
  return conditions
    .filter((c) => triggered(c.trigger, record, operation))
    .flatMap((c) => c.requires);
}
