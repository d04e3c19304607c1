import type { RecordId } from '../records/created-id.ts';
import type fc from 'fast-check';
import type { RuleId } from '../contract/rules.ts';

/**
 * One generated request body, valid or breaking exactly one rule.
 * `breaks` undefined: the payload satisfies every rule of the spec model; otherwise it breaks
 * exactly that rule and nothing else (unit tests prove both with the spec model).
 */
export interface GeneratedCase {
  readonly payload: Readonly<Record<string, unknown>>;
  readonly breaks?: RuleId;
  /** What this case is, for people: "password missing an uppercase letter", "valid, all_day with weekly repeat". */
  readonly label: string;
}

/** What generators need to know about the target (fixtures and resources the runner created). */
export interface GeneratorContext {
  readonly companyTimezone: string;
  /** Active user IDs (assigned_by, user_ids, user_id). */
  readonly activeUserIds: readonly RecordId[];
  readonly jobId?: RecordId;
  readonly taskId?: RecordId;
  readonly breakRuleId?: RecordId;
  /** For break-create: the timesheet the breaks must lie inside (closed, 08:00 to 18:00 local). */
  readonly timesheet?: { readonly id: RecordId; readonly start: string; readonly end: string };
  /**
   * A tag folded into unique values (e-mails) so repeated runs do not collide on a real target.
   * Deterministic output for a seed needs a fixed tag (fuzz uses "fuzz").
   */
  readonly uniqueTag: string;
}

/** The request a family's cases are sent with. `{id}` in the path is the setup resource's ID. */
export interface FamilyRequest {
  readonly method: 'POST' | 'PUT';
  readonly path: string;
}

/**
 * A property family: generated cases for one operation and one group of input rules.
 * The property: a valid case is accepted (2xx) and an invalid one rejected (4xx other than 429).
 */
export interface PropertyFamily {
  /** Stable name, e.g. `user-password`; the check ID is `properties/<name>`. */
  readonly name: string;
  readonly title: string;
  readonly request: FamilyRequest;
  /** The rules the family certifies: a rejected valid case fails the first one. */
  readonly rules: readonly RuleId[];
  /** A resource the runner creates first: a timesheet for breaks, a schedule or user to update. */
  readonly needs: 'timesheet' | 'schedule' | 'user' | null;
  /** Valid and invalid cases, mixed (the runner sends each once). */
  cases(ctx: GeneratorContext): fc.Arbitrary<GeneratedCase>;
  /**
   * The rule a refused VALID case breaks, when the family can tell (e.g. a timesheet without a
   * timezone: TS-OFFSET-DEFAULT-TIMEZONE). Default: the family's first rule.
   */
  refusalRule?(generated: GeneratedCase): RuleId;
}
