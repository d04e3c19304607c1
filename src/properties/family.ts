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
  /** The edge classes this case is a member of (arbitraries/edges/): none for a random case. */
  readonly edges?: readonly string[];
  /**
   * A second member of the same classes, sent when the target refuses this valid case: its member
   * may be one the target holds (a code another user has), a refusal the spec allows. The refusal
   * fails only when the alternate is refused too.
   */
  readonly alternate?: GeneratedCase;
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
   * The family's edge classes (arbitraries/edges/): a run sends one member of each before its random
   * cases, so every edge is in every full run whatever the seed. At most DEFAULT_CASES_PER_FAMILY
   * cases (valid classes packed): they take the place of random cases, at no extra cost.
   */
  readonly edges: readonly EdgeClass[];
  /**
   * The rule a refused VALID case breaks, when the family can tell (e.g. a timesheet without a
   * timezone: TS-OFFSET-DEFAULT-TIMEZONE). Default: the family's first rule.
   */
  refusalRule?(generated: GeneratedCase): RuleId;
}

/**
 * One class of a family's domain edges: values the spec's stated limit or format makes special
 * (the first and last valid values of a range, the first invalid ones on each side, a code that
 * starts with 0, a leap day of a century year …). A full run sends one member of every class,
 * whatever the seed; the seed picks the member.
 */
export interface EdgeClass {
  /** What the class is, for people: the label of its case and a line of `clockcheck fuzz --edges`. */
  readonly name: string;
  /** The rule a member breaks; undefined: a member is valid. */
  readonly breaks?: RuleId;
  /**
   * Valid classes only: the fields a member's edge is in. Valid classes of one `pack` with no field
   * in common go into one case (a refused packed case is narrowed to its field by minimal pairs).
   */
  readonly fields?: readonly string[];
  /** Valid classes only: the classes that may share a case (their members come from one base). */
  readonly pack?: string;
  /** The members, as whole cases built from a valid base with the edge in place. */
  readonly member: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;
  /**
   * The target may refuse a member for a reason the spec allows (a code another user holds, where a
   * server keeps codes unique): the case carries a second member, sent before a refusal fails.
   */
  readonly mayBeHeld?: boolean;
}
