import { z } from 'zod';
import { isRuleId, RULES, type RuleId } from '../contract/rules.ts';
import { ruleIdSchema } from '../input/rule-id.ts';
import { zodKeys } from '../input/source-issue.ts';
import { isJsonPath, JSON_PATH_FORMS } from '../records/json-path.ts';
import { DATE_RANGE_END_READINGS, USER_EDIT_READINGS, USER_EMAIL_READINGS } from '../profile/readings.ts';

/**
 * The YAML scenario format (docs/scenario-format.md). Every object is strict: an unknown key is an
 * error with a "did you mean" hint, never silently ignored.
 */


/**
 * An expected status: an exact code, or a class.
 * `success` 2xx (the profile's `status_codes.<operation>` tightens it);
 * `rejected` 4xx other than 429 (tightened by `status_codes.validation`);
 * `refused` 4xx other than 429, for authentication (tightened by `status_codes.unauthenticated`);
 * `not-5xx` any answer but a server error or a 429 (for what the spec leaves open: served or refused, never a crash);
 * `2xx`/`3xx`/`4xx`/`5xx` a class; `any` no expectation.
 */
export const STATUS_WORDS = ['success', 'rejected', 'refused', 'not-5xx', '2xx', '3xx', '4xx', '5xx', 'any'] as const;
export const statusSchema = z.union([z.number().int().min(100).max(599), z.enum(STATUS_WORDS)], {
  error: `expected a status code (100 to 599) or one of ${STATUS_WORDS.join(', ')}`,
});
export type ExpectedStatus = z.infer<typeof statusSchema>;

/** A JSON path of the response (src/records/json-path.ts), checked when the suite loads. */
const jsonPath = z.string().refine(isJsonPath, JSON_PATH_FORMS);

/** A regular expression (`matches:`), compiled when the suite loads so a typo is no error mid-run. */
const regex = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
  }
});

/** Value formats an assertion can require (from the spec model). */
export const FORMAT_NAMES = ['offset-datetime', 'naive-datetime', 'us-date', 'ymd-date', 'clock-time', 'timezone-name'] as const;

/** An assertion on the JSON body. `path` is `$`, `$.a.b`, `$.items[0].id`, `$.items[*].id`. */
export const assertionSchema = z.strictObject({
  path: jsonPath,
  /**
   * For what the spec leaves "not shown" (record fields): when the path reaches nothing, the
   * assertion is unobserved, not failed; a scenario whose every such assertion is unobserved is skipped.
   */
  if_present: z.boolean().optional(),
  exists: z.boolean().optional(),
  equals: z.unknown().optional(),
  not_equals: z.unknown().optional(),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']).optional(),
  matches: regex.optional(),
  one_of: z.array(z.unknown()).optional(),
  length: z.number().int().min(0).optional(),
  max_length: z.number().int().min(0).optional(),
  every_in: z.array(z.unknown()).optional(),
  contains_all: z.array(z.unknown()).optional(),
  excludes: z.array(z.unknown()).optional(),
  format: z.enum(FORMAT_NAMES).optional(),
  /**
   * Under `$record`/`$list`, values are compared by meaning and field names in either spelling
   * (src/records/same-meaning.ts); `exact: true` compares the representation and names as written,
   * for records the spec shows (the break records of §2.4). Paths under `$` are always exact.
   */
  exact: z.boolean().optional(),
  /** The rule a failure of this assertion breaks (default: the expectation's, then the scenario's first). */
  rule: ruleIdSchema.optional(),
});
export type Assertion = z.infer<typeof assertionSchema>;

export const SCHEMA_NAMES = ['break-list-response', 'break-create-response', 'pagination-block', 'break-listed', 'break-created'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export const expectSchema = z.strictObject({
  status: statusSchema.optional(),
  /** A named response schema of the spec model. */
  schema: z.enum(SCHEMA_NAMES).optional(),
  json: z.array(assertionSchema).optional(),
  headers: z
    .record(z.string(), z.strictObject({ exists: z.boolean().optional(), matches: regex.optional() }))
    .optional(),
  /** The response must not have a body (HEAD). */
  no_body: z.boolean().optional(),
  /** The rule a failed expectation breaks (default: the scenario's first rule). */
  rule: ruleIdSchema.optional(),
  /**
   * The profile key (a path) the step's request rests on (`webhook.read_path`): when the expectation
   * does not hold and the answer says there is no such path (404, 405, 501), the profile's value
   * does not fit this target, and the check is errored naming the key, never failed under a rule of
   * the target.
   */
  profile: z.enum(['webhook.subscribe_path', 'webhook.read_path']).optional(),
});
export type Expectation = z.infer<typeof expectSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const requestSchema = z.strictObject({
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']),
  /** Relative to `{base_url}/api/public` (or `prefix`); may hold a query string; templated (may be one template). */
  path: z.string().regex(/^(\/|\{\{)/, 'expected a path starting with / (or a template such as {{ profile.webhook.read_path }})'),
  /** Replaces `/api/public`, e.g. `{{ profile.versioned_prefix }}`. */
  prefix: z.string().optional(),
  query: z.record(z.string(), scalar).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  json: z.unknown().optional(),
  raw_body: z.string().optional(),
  /**
   * `token` (default): the token in the form the target accepts (raw, as §5.2 says, unless the
   * preflight found only `Bearer` accepted); `raw-token`: the raw token whatever the target accepts
   * (for AUTH-HEADER-RAW); `none`: no Authorization header; `{raw}`: this exact value.
   */
  auth: z.union([z.enum(['token', 'raw-token', 'none']), z.strictObject({ raw: z.string() })]).default('token'),
});
export type ScenarioRequest = z.infer<typeof requestSchema>;

/** Where a captured value comes from: a JSON path, or the created resource's ID (found as the profile says). */
export const captureSchema = z.union([
  z.strictObject({ path: jsonPath }),
  z.strictObject({ from: z.literal('created_id') }),
]);

export const requestStepSchema = z.strictObject({
  name: z.string().optional(),
  request: requestSchema,
  expect: expectSchema.default({}),
  /**
   * (Listed after `expect`: a misspelt key is matched to the nearest known key, the first of equals.)
   * What the answer must show before `expect` is judged on it (e.g. that a search lists the record
   * the scenario made first): not holding, it errors the scenario as a setup step would, and
   * nothing of `expect` is judged. One request is then both the precondition and the verdict.
   */
  precondition: expectSchema.optional(),
  capture: z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/), captureSchema).optional(),
  /**
   * A setup step sent once per run: scenarios whose setup holds the same step (the same request,
   * expectation and captures, as written) take its captures from the first one's answer. For a
   * record that only lends a value (a throwaway user whose ID makes names new on the target) and
   * that no check changes; under --only a scenario sends its own.
   */
  once: z.boolean().optional(),
});

/** A built-in check (src/checks): for what a declaration cannot say, e.g. walking every page. */
export const checkStepSchema = z.strictObject({
  name: z.string().optional(),
  check: z.string(),
  args: z.record(z.string(), z.unknown()).default({}),
});

export const stepSchema = z.union([requestStepSchema, checkStepSchema]);
export type RequestStep = z.infer<typeof requestStepSchema>;
export type CheckStep = z.infer<typeof checkStepSchema>;
export type Step = z.infer<typeof stepSchema>;

/** One change of a minimal pair: set or remove top-level body fields (or query parameters). */
export const variantSchema = z.strictObject({
  why: z.string(),
  set: z.record(z.string(), z.unknown()).optional(),
  unset: z.array(z.string()).optional(),
  query: z.record(z.string(), scalar).optional(),
  /** Default `{status: rejected}`. */
  expect: expectSchema.optional(),
  /** The rule this variant breaks (default: the scenario's first rule). */
  rule: ruleIdSchema.optional(),
});
export type Variant = z.infer<typeof variantSchema>;

/**
 * A minimal pair: the valid baseline is sent and must be accepted; then each variant changes exactly
 * one thing and must get its expectation (rejected by default). A failure names the variant's rule.
 */
export const pairSchema = z.strictObject({
  request: requestSchema,
  /** Expectation of the baseline; default `{status: success}`. */
  accept: expectSchema.optional(),
  variants: z.array(variantSchema).min(1),
});
export type Pair = z.infer<typeof pairSchema>;

export const scenarioSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected kebab-case, e.g. rejects-feb-30'),
    title: z.string().min(1),
    rules: z.array(ruleIdSchema).min(1),
    /** Creates or changes data on the target: skipped with --read-only. */
    mutates: z.boolean().default(false),
    /** Profile values the scenario needs, e.g. `fixtures.inactive_user_id`; skipped when absent. */
    requires: z.array(z.string()).default([]),
    /**
     * The reading of an open rule the scenario certifies, e.g. `{user_email_format: validated}`: it
     * runs only when the profile declares that reading, and is skipped (with the declared one) otherwise.
     */
    when: z
      .strictObject({
        user_email_format: z.enum(USER_EMAIL_READINGS).optional(),
        user_edit_required: z.enum(USER_EDIT_READINGS).optional(),
        date_range_ends: z.enum(DATE_RANGE_END_READINGS).optional(),
      })
      .default({}),
    /** Values rendered once when the scenario starts, then read as `vars.NAME` (e.g. one e-mail for several requests). */
    let: z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/), z.unknown()).default({}),
    /** Shared steps run before the pair (e.g. create a timesheet to put breaks in). */
    setup: z.array(stepSchema).default([]),
    steps: z.array(stepSchema).optional(),
    pair: pairSchema.optional(),
  })
  .refine((s) => (s.steps ? 1 : 0) + (s.pair ? 1 : 0) === 1, { message: 'a scenario has exactly one of `steps` or `pair`' })
  .refine((s) => !(s.steps ?? []).some((step) => 'request' in step && step.once), { message: '`once` is for setup steps: a step of `steps` is the check itself' })
  .refine((s) => s.setup.every((step) => !('request' in step) || !step.once || (step.capture !== undefined && Object.keys(step.capture).length > 0)), {
    message: 'a `once` setup step lends its captures to the scenarios that share it: it needs `capture`',
  })
  .refine((s) => s.setup.every((step) => !('request' in step) || !step.once || !/\bvars\./.test(JSON.stringify([step.request, step.precondition, step.expect]))), {
    message: "a `once` setup step is the same in every scenario that shares it: it cannot read the scenario's `vars`",
  });
export type Scenario = z.infer<typeof scenarioSchema>;

export const suiteSchema = z.strictObject({
  suite: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string(),
  /** Free-form YAML anchors live here (e.g. baseline payloads); not read by the engine. */
  definitions: z.record(z.string(), z.unknown()).optional(),
  scenarios: z.array(scenarioSchema).min(1),
});
export type Suite = z.infer<typeof suiteSchema>;

/** Every key the format knows, for "did you mean" hints. */
export const KNOWN_KEYS: readonly string[] = zodKeys(suiteSchema);
