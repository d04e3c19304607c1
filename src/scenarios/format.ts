import { z } from 'zod';
import { ruleIdSchema } from '../input/rule-id.ts';
import { BUILTIN_CHECK_NAMES } from '../checks/names.ts';
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
export const statusSchema = z
  .union([z.number().int().min(100).max(599), z.enum(STATUS_WORDS)], {
    error: `expected a status code (100 to 599) or one of ${STATUS_WORDS.join(', ')}`,
  })
  .describe('An exact code, or: success (2xx), rejected (4xx but 429), refused (4xx but 429, authentication), not-5xx, 2xx, 3xx, 4xx, 5xx, any.');
export type ExpectedStatus = z.infer<typeof statusSchema>;

/** A JSON path of the response (src/records/json-path.ts), checked when the suite loads. */
const jsonPath = z.string().refine(isJsonPath, JSON_PATH_FORMS).describe('A JSON path of the response: $, $.a.b, $.items[0].id, $.items[*].id, $record.field, $list[*].field.');

/** A regular expression (`matches:`), compiled when the suite loads so a typo is no error mid-run. */
const regex = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
  }
}).describe('A regular expression the value matches.');

/** Value formats an assertion can require (from the spec model). */
export const FORMAT_NAMES = ['offset-datetime', 'naive-datetime', 'us-date', 'ymd-date', 'clock-time', 'timezone-name'] as const;

/** An assertion on the JSON body. `path` is `$`, `$.a.b`, `$.items[0].id`, `$.items[*].id`. */
export const assertionSchema = z.strictObject({
  path: jsonPath,
  if_present: z
    .boolean()
    .optional()
    .describe('For what the spec leaves "not shown" (record fields): when the path reaches nothing, the assertion is unobserved, not failed; a scenario whose every such assertion is unobserved is skipped.'),
  exists: z.boolean().optional().describe('The path reaches a value (true) or nothing (false).'),
  equals: z.unknown().optional().describe('The value equals this.'),
  not_equals: z.unknown().optional().describe('The value differs from this.'),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']).optional().describe('The JSON type of the value.'),
  matches: regex.optional(),
  one_of: z.array(z.unknown()).optional().describe('The value is one of these.'),
  length: z.number().int().min(0).optional().describe('The array has exactly this many elements.'),
  max_length: z.number().int().min(0).optional().describe('The array has at most this many elements.'),
  every_in: z.array(z.unknown()).optional().describe('Every value is in this list.'),
  contains_all: z.array(z.unknown()).optional().describe('The values include every one of these.'),
  excludes: z.array(z.unknown()).optional().describe('None of the values is one of these.'),
  format: z.enum(FORMAT_NAMES).optional().describe('A value format of the spec model.'),
  exact: z
    .boolean()
    .optional()
    .describe(
      'Under $record/$list, values are compared by meaning and field names in either spelling; exact: true compares the representation and names as written, for records the spec shows (the break records of §2.4). Paths under $ are always exact.',
    ),
  rule: ruleIdSchema.optional().describe("The rule a failure of this assertion breaks (default: the expectation's, then the scenario's first)."),
});
export type Assertion = z.infer<typeof assertionSchema>;

export const SCHEMA_NAMES = ['break-list-response', 'break-create-response', 'pagination-block', 'break-listed', 'break-created'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export const expectSchema = z.strictObject({
  status: statusSchema.optional(),
  schema: z.enum(SCHEMA_NAMES).optional().describe('A named response schema of the spec model.'),
  json: z.array(assertionSchema).optional().describe('Assertions on the JSON body, all of which must hold.'),
  headers: z
    .record(z.string(), z.strictObject({ exists: z.boolean().optional(), matches: regex.optional() }))
    .optional()
    .describe('Response headers by name: whether each exists, and what it matches.'),
  no_body: z.boolean().optional().describe('The response must not have a body (HEAD).'),
  rule: ruleIdSchema.optional().describe("The rule a failed expectation breaks (default: the scenario's first rule)."),
  profile: z
    .enum(['webhook.subscribe_path', 'webhook.read_path'])
    .optional()
    .describe(
      "The profile key the step's request rests on: when the expectation does not hold and the answer says there is no such path (404, 405, 501), the check is errored naming the key, never failed under a rule of the target.",
    ),
});
export type Expectation = z.infer<typeof expectSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const requestSchema = z.strictObject({
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']).describe('The HTTP method; GET with json sends a body (as GET /breaks takes ids).'),
  path: z
    .string()
    .regex(/^(\/|\{\{)/, 'expected a path starting with / (or a template such as {{ profile.webhook.read_path }})')
    .describe('Relative to {base_url}/api/public (or prefix); may hold a query string; templated (may be one template).'),
  prefix: z.string().optional().describe('Replaces /api/public, e.g. "{{ profile.versioned_prefix }}".'),
  query: z.record(z.string(), scalar).optional().describe('Query parameters; values templated.'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers; values templated.'),
  json: z.unknown().optional().describe('The JSON body; strings templated ("{{ unique.email }}").'),
  raw_body: z.string().optional().describe('A body sent as is, instead of json (e.g. malformed JSON).'),
  auth: z
    .union([z.enum(['token', 'raw-token', 'none']), z.strictObject({ raw: z.string() })])
    .default('token')
    .describe(
      'token (default): the token in the form the target accepts (raw, as §5.2 says, unless the preflight found only Bearer accepted); raw-token: the raw token whatever the target accepts (for AUTH-HEADER-RAW); none: no Authorization header; {raw}: this exact value.',
    ),
});
export type ScenarioRequest = z.infer<typeof requestSchema>;

/** Where a captured value comes from: a JSON path, or the created resource's ID (found as the profile says). */
export const captureSchema = z
  .union([z.strictObject({ path: jsonPath }), z.strictObject({ from: z.literal('created_id') })])
  .describe("A JSON path of the answer ({ path: $.items[0].id }), or the created resource's ID ({ from: created_id }, found as the profile's id_pointer says).");

export const requestStepSchema = z.strictObject({
  name: z.string().optional().describe('What the step does, shown in findings.'),
  request: requestSchema.describe('The request the step sends.'),
  expect: expectSchema.default({}).describe('What the answer must show.'),
  // Listed after `expect`: a misspelt key is matched to the nearest known key, the first of equals.
  precondition: expectSchema
    .optional()
    .describe(
      'What the answer must show before expect is judged on it (e.g. that a search lists the record the scenario made first): not holding, it errors the scenario as a setup step would, and nothing of expect is judged.',
    ),
  capture: z
    .record(z.string().regex(/^[a-z_][a-z0-9_]*$/), captureSchema)
    .optional()
    .describe('Values of the answer kept for the steps that follow, as {{ vars.NAME }}.'),
  once: z
    .boolean()
    .optional()
    .describe(
      "A setup step sent once per run: scenarios whose setup holds the same step (the same request, expectation and captures, as written) take its captures from the first one's answer. For a record that only lends a value and that no check changes.",
    ),
});

/** A built-in check (src/checks): for what a declaration cannot say, e.g. walking every page. */
export const checkStepSchema = z.strictObject({
  name: z.string().optional().describe('What the step does, shown in findings.'),
  check: z.string().meta({ description: 'A built-in check (docs/scenario-format.md, "Check steps").', enum: [...BUILTIN_CHECK_NAMES] }),
  args: z.record(z.string(), z.unknown()).default({}).describe("The check's arguments (each check declares its own)."),
});

export const stepSchema = z.union([requestStepSchema, checkStepSchema]);
export type RequestStep = z.infer<typeof requestStepSchema>;
export type CheckStep = z.infer<typeof checkStepSchema>;
export type Step = z.infer<typeof stepSchema>;

/** One change of a minimal pair: set or remove top-level body fields (or query parameters). */
export const variantSchema = z.strictObject({
  why: z.string().describe('The one thing this variant changes, e.g. "no uppercase letter".'),
  set: z.record(z.string(), z.unknown()).optional().describe('Top-level body fields set to these values.'),
  unset: z.array(z.string()).optional().describe('Top-level body fields removed.'),
  query: z.record(z.string(), scalar).optional().describe('Query parameters set to these values.'),
  expect: expectSchema.optional().describe('What the answer to the variant must show; default { status: rejected }.'),
  rule: ruleIdSchema.optional().describe("The rule this variant breaks (default: the scenario's first rule)."),
});
export type Variant = z.infer<typeof variantSchema>;

/**
 * A minimal pair: the valid baseline is sent and must be accepted; then each variant changes exactly
 * one thing and must get its expectation (rejected by default). A failure names the variant's rule.
 */
export const pairSchema = z.strictObject({
  request: requestSchema.describe('The valid baseline request.'),
  accept: expectSchema.optional().describe('What the answer to the baseline must show; default { status: success }.'),
  variants: z.array(variantSchema).min(1).describe('Each changes exactly one thing of the baseline and must get its expectation (rejected by default).'),
});
export type Pair = z.infer<typeof pairSchema>;

export const scenarioSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected kebab-case, e.g. rejects-feb-30')
      .describe('kebab-case, unique in the suite; the run-wide ID is suite/id.'),
    title: z.string().min(1).describe('A sentence about the behaviour.'),
    rules: z.array(ruleIdSchema).min(1).describe('The rule IDs the scenario certifies; the first is the default rule of its findings.'),
    mutates: z.boolean().default(false).describe('Creates or changes data on the target: skipped with --read-only.'),
    requires: z.array(z.string()).default([]).describe('Profile values the scenario needs, e.g. fixtures.inactive_user_id; skipped when absent.'),
    when: z
      .strictObject({
        user_email_format: z.enum(USER_EMAIL_READINGS).optional().describe("Runs only when the profile's user_email_format is this."),
        user_edit_required: z.enum(USER_EDIT_READINGS).optional().describe("Runs only when the profile's user_edit_required is this."),
        date_range_ends: z.enum(DATE_RANGE_END_READINGS).optional().describe("Runs only when the profile's date_range_ends is this."),
      })
      .default({})
      .describe('The reading of an open rule the scenario certifies, e.g. { user_email_format: validated }: it runs only when the profile declares that reading, and is skipped otherwise.'),
    let: z
      .record(z.string().regex(/^[a-z_][a-z0-9_]*$/), z.unknown())
      .default({})
      .describe('Values rendered once when the scenario starts, then read as vars.NAME (e.g. one e-mail for several requests).'),
    setup: z.array(stepSchema).default([]).describe('Steps run first (e.g. create a timesheet to put breaks in); a setup failure makes the scenario errored, never passed.'),
    steps: z.array(stepSchema).optional().describe('Request steps and check steps, run in order; exactly one of steps or pair.'),
    pair: pairSchema.optional().describe('A minimal pair: a valid baseline, then variants that each change one thing; exactly one of steps or pair.'),
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
  suite: z.string().regex(/^[a-z0-9-]+$/).describe("The suite's name: its scenarios' IDs are suite/id."),
  description: z.string().describe('What the suite certifies, with the sections of the spec.'),
  definitions: z.record(z.string(), z.unknown()).optional().describe('Free-form: a place for YAML anchors (e.g. baseline payloads) the scenarios reuse; not read by the engine.'),
  scenarios: z.array(scenarioSchema).min(1).describe('The scenarios, each certifying the rules it names.'),
}).meta({
  title: 'clockcheck suite',
  description: 'A suite file of YAML scenarios (docs/scenario-format.md): each names the spec rules it certifies and runs steps or a minimal pair.',
});
export type Suite = z.infer<typeof suiteSchema>;

/** Every key the format knows, for "did you mean" hints. */
export const KNOWN_KEYS: readonly string[] = zodKeys(suiteSchema);
