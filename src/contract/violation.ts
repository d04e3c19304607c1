import type { RuleId } from './rules.ts';

/** A payload's breach of one spec rule: which rule, which field, and why. */
export interface Violation {
  readonly ruleId: RuleId;
  /** The field concerned (dotted path), or `''` for the whole body. */
  readonly field: string;
  readonly message: string;
}
