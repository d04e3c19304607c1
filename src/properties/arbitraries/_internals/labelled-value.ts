import type { RuleId } from '../../../contract/rules.ts';

/** A generated value with what makes it special, for labels: "February 29th of a non-leap year". */
export interface LabelledValue {
  readonly value: string;
  readonly label: string;
}

/** An invalid value and the one rule it breaks. */
export interface RuleBreakingValue extends LabelledValue {
  readonly breaks: RuleId;
}
