import { jsonText, parseJsonExact } from '../contract/json-text.ts';
import { z } from 'zod';
import { isOffsetDateTime, isTimezoneName } from '../contract/formats/index.ts';
import { ruleIdSchema } from '../input/rule-id.ts';
import { parseYamlSource } from '../input/yaml-source.ts';
import { MAX_PROFILE_BYTES, readInputFile } from '../input/input-file.ts';
import { sourceErrorFromIssues, zodKeys } from '../input/source-issue.ts';
import { parseDuration } from '../duration.ts';
import { referencedPaths } from '../input/template-syntax.ts';
import { DATE_RANGE_ENDS, USER_EDIT_REQUIRED, USER_EMAIL_FORMATS } from './readings.ts';
import { NotificationForm } from '../contract/webhook-notification.ts';

const DURATION = 'expected a duration such as 60s, 1m or 500ms';
/** A duration as the user writes it (`60s`, `1m`, `500ms`), read as milliseconds. */
const duration = (fallback: string, description: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => parseDuration(v) !== null, { message: DURATION })
    .transform((v) => parseDuration(v) as number)
    .describe(`${description} A duration: 60s, 1m, 500ms.`);
/** A duration that may be left out (undefined then). */
const optionalDuration = (description: string) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || parseDuration(v) !== null, { message: DURATION })
    .transform((v) => (v === undefined ? undefined : (parseDuration(v) as number)))
    .describe(`${description} A duration: 60s, 1m, 500ms.`);
/** A record's ID: an integer, a BigInt where it is beyond 2^53 (read exactly, carried back exactly). */
const id = z.union([z.number().int(), z.bigint()]);
const status = (when: string) => z.number().int().min(100).max(599).optional().describe(`The exact status of ${when}; absent: the class the spec allows.`);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const offsetDateTime = z.string().refine(isOffsetDateTime, 'expected ISO 8601 with offset, YYYY-MM-DDTHH:MM:SS±HH:MM');

/**
 * A target profile (YAML). Every key is optional; the defaults certify a server that follows the
 * spec and makes the weakest choices where the spec says "not shown". The keys' descriptions are
 * what an editor shows (docs/profile-schema.json is generated from this schema: `npm run schemas`).
 */
export const profileSchema = z.strictObject({
  target: z.string().optional().describe('`{base_url}` of the spec: https://host[:port]. --target overrides it.'),
  token_env: envName.default('CLOCKCHECK_TOKEN').describe('The environment variable that holds the token (the token itself never goes in a profile).'),
  tls: z
    .strictObject({
      ca: z.string().optional().describe("A PEM file of the CA that signed the target's certificate (a private CA)."),
      insecure: z.boolean().default(false).describe('true: the certificate is not verified (a test target only).'),
    })
    .prefault({})
    .describe("How the target's certificate is trusted."),
  rate_limit: z
    .strictObject({
      limit: z.number().int().positive().default(60).describe('Calls per window the target allows (§8: 60).'),
      window: duration('60s', 'The window the limit counts in (§8: a minute).'),
      probe_path: z.string().startsWith('/').default('/users').describe('The call the rate-limit bursts repeat: a read-only list (default GET /users, §4.2).'),
      burst_extra: z.number().int().min(1).max(20).default(4).describe('Calls beyond the limit in the boundary burst (the K of limit + K).'),
      connections: z.number().int().min(1).max(64).default(8).describe('Connections a burst is spread over.'),
      body_text: z.string().min(1).optional().describe('§7 names 429 "Too Many Attempts"; the body is not shown. The text the 429 body must contain (RATE-LIMIT-BODY); default: not asserted.'),
      bursts: z.boolean().default(true).describe('false skips the burst checks (the run-wide monitor still runs), e.g. for a target shared with other clients.'),
    })
    .prefault({})
    .describe('§8: 60 calls per minute. The pacer keeps the harness under it; the rate-limit checks probe it.'),
  company_timezone: z.string().refine(isTimezoneName, 'expected an IANA timezone name').default('America/Chicago').describe("The company's IANA timezone name, e.g. Europe/Berlin: the zone a record that names none is in (§2.1, §2.3). The API does not show it."),
  api_prefix: z.string().startsWith('/').default('/api/public').describe('Where documented operations live (§1).'),
  versioned_prefix: z.string().startsWith('/').optional().describe('§9: a versioned prefix the target serves, e.g. /api/v2; VER-VERSIONED-PATH is skipped without it.'),
  fixtures: z
    .strictObject({
      active_user_ids: z.array(id).min(1).optional().describe('IDs of active users on the target; the first is assigned_by and the timesheet user.'),
      inactive_user_id: id.optional().describe('The ID of an inactive user.'),
      job_id: id.optional().describe('The ID of a job.'),
      task_id: id.optional().describe('The ID of a task.'),
      break_rule_id: id.optional().describe('The ID of a break rule.'),
      role_user_ids: z
        .strictObject({ admin: z.array(id).optional(), manager: z.array(id).optional(), employee: z.array(id).optional() })
        .optional()
        .describe('Users of each role, for the role filter.'),
      timesheet: z
        .strictObject({ id, start: offsetDateTime, end: offsetDateTime })
        .optional()
        .describe('A closed timesheet on the target (`clockcheck fuzz break` puts its breaks inside it): its ID, start and end (ISO 8601 with offset).'),
    })
    .prefault({})
    .describe("The target's own records the checks use; a check that needs one absent is skipped with the reason."),
  second_company: z
    .strictObject({
      token_env: envName.describe("The environment variable that holds an administrator token of a second company on the same server (never the token itself, never on the command line): the isolation checks (ISO-*) read and write as each company and require that neither reaches the other's records (§1, §5.5)."),
      rate_limit: z.enum(['shared', 'per-token']).default('shared').describe("§8 counts all requests; whether the two companies' tokens share one window is not shown. `shared`: the second company's calls are paced in the first's window; `per-token`: each token has a window of its own (`init` tells them apart where the target sends rate-limit headers)."),
      foreign_ids: z.enum(['either', 'as-missing', 'refused']).default('either').describe("How a request naming another company's record is answered: `as-missing`, exactly as an ID that never existed (no existence oracle, OWASP's advice); `refused`, with a refusal of its own such as 403; `either` (default): any 4xx."),
      ids: z.enum(['unknown', 'global']).default('unknown').describe("Whether record IDs come from one sequence across companies (`global`): then a probe may name the other company's schedule by ID, which no read can show names nothing of the caller's own (§4.1 has no schedule read). `unknown` (default): only IDs a read showed to be none of the caller's are probed."),
      break_rule_id: id.optional().describe("A break rule of the second company, for its break (default: one its breaks list shows; without either, the break checks are skipped)."),
    })
    .optional()
    .describe("A second company's administrator token, for the isolation checks between companies (OWASP API1:2023). Without it they are skipped and the run says isolation was not certified."),
  status_codes: z
    .strictObject({
      create: status('a create'),
      update: status('an update'),
      list: status('a list'),
      delete: status('a delete'),
      validation: status('a rejected request (validation)'),
      unauthenticated: status('a request without a valid token'),
    })
    .prefault({})
    .describe('Exact status codes to enforce where the spec says "not shown"; absent: any 2xx / any 4xx except 429.'),
  id_pointer: z.string().startsWith('/').optional().describe("JSON pointer to a created resource's ID in the create response, e.g. /data/id. Default: `id` at the top or one envelope key deep."),
  sort_names: z.record(z.string(), z.string()).default({}).describe('Sort names the target uses, by record field: the spec shows `firstName`, `roleId` (camelCase, the default).'),
  page_size_over_max: z.enum(['clamp', 'reject', 'either']).default('either').describe('§8 page_size above 100: whether the target clamps, rejects, or either is fine (default).'),
  record_fields: z
    .enum(['auto', 'snake', 'camel'])
    .default('auto')
    .describe('How field names of the records the spec does not show (users, schedules, timesheets) are spelled: `snake` (first_name), `camel` (firstName), or `auto` (default: the name as the suite writes it, else its other spelling).'),
  list_items: z.string().startsWith('/').optional().describe('JSON pointer to the items of a list the spec does not show (GET /users, /timesheets), e.g. /data. Default: `items`, else the only array-valued key.'),
  page_links: z.enum(['either', 'keep-query', 'page-only']).default('either').describe("§2.5 link form: `keep-query` (links repeat the request's other query parameters), `page-only` (`?page=N` only), or `either` (default)."),
  user_email_format: z.enum(USER_EMAIL_FORMATS).default('either').describe('USR-EMAIL-FORMAT (§2.2, not shown): whether a malformed e-mail is rejected (`validated`), accepted (`not-validated`), or either (default: not asserted).'),
  user_edit_required: z.enum(USER_EDIT_REQUIRED).default('either').describe('USR-EDIT-REQUIRED (§4.2, not shown which governs): whether edit requires first_name, last_name, email and password (`all-four`), none of them (`none`), or either (default).'),
  date_range_ends: z.enum(DATE_RANGE_ENDS).default('either').describe('DATE-RANGE (§4.6 says "between"): whether records on the two end dates are listed (`inclusive`), not listed (`exclusive`), or either (default: the ends not judged).'),
  webhook: z
    .strictObject({
      subscribe_path: z.string().startsWith('/').optional().describe("The subscribe extension, e.g. /webhooks/subscription; without it a sink must be subscribed outside the API (in the service's web app)."),
      subscribe_body: z.record(z.string(), z.unknown()).default({}).describe("Its body; `{{ sink.url }}` and `{{ sink.secret }}` are the run's sink URL and the secret of webhook.secret_env."),
      read_path: z.string().startsWith('/').optional().describe('Reads the subscription back, so unsubscribe is observed deleting it.'),
      sink: z
        .strictObject({
          listen: z
            .string()
            .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:8787 or [::1]:8787')
            .default('127.0.0.1:0')
            .describe('host:port the sink listens on (default 127.0.0.1 on a free port).'),
          public_url: z.url({ protocol: /^https?$/ }).optional().describe("The URL the target reaches the sink at, e.g. through a tunnel you run (default: the sink's own URL)."),
          tls: z
            .strictObject({ cert: z.string().min(1), key: z.string().min(1) })
            .optional()
            .describe('Serve HTTPS with this certificate and key (PEM files); default plain HTTP (a tunnel usually ends TLS).'),
        })
        .optional()
        .describe('A receiver the run starts, so notifications are observed (WH-NOTIFICATION-ARRIVES, WH-SIGNATURE, WH-PAYLOAD-SHAPE, WH-NOTIFICATIONS-STOP).'),
      secret_env: envName.optional().describe("The environment variable holding the subscription's secret (signatures are checked with it; never in a profile or report)."),
      delivery_within: duration('60s', 'How long a notification may take to arrive (delivery: not shown).'),
      quiet_period: optionalDuration('How long the sink must stay silent after unsubscribe and the changes that follow it (default: delivery_within).'),
      signature_tolerance: duration('300s', "How far a notification's timestamp header may be from the sink's clock."),
      notification: NotificationForm.prefault({}).describe(
        "The form of a notification (§6: not shown): where its body names the resource's ID, the operation and the category, and how it is signed. Default: as the service publishes it.",
      ),
    })
    .superRefine((webhook, ctx) => {
      const paths = referencedPaths(webhook.subscribe_body);
      if (!webhook.subscribe_path && !webhook.sink) {
        ctx.addIssue({ code: 'custom', path: ['subscribe_path'], message: 'webhook needs subscribe_path (a subscribe extension), sink (a receiver for notifications), or both' });
      }
      if (!webhook.sink && paths.some((p) => p.startsWith('sink.'))) {
        ctx.addIssue({ code: 'custom', path: ['subscribe_body'], message: 'subscribe_body uses {{ sink.* }}: declare webhook.sink' });
      }
      if (!webhook.secret_env && paths.includes('sink.secret')) {
        ctx.addIssue({ code: 'custom', path: ['subscribe_body'], message: 'subscribe_body uses {{ sink.secret }}: name the variable that holds it in webhook.secret_env' });
      }
      if (webhook.sink?.public_url && /:0$/.test(webhook.sink.listen)) {
        ctx.addIssue({ code: 'custom', path: ['sink', 'listen'], message: 'a public_url forwards to a fixed port: give listen a port, e.g. 127.0.0.1:8787' });
      }
    })
    .optional()
    .describe(
      "Webhooks (§4.5, §6; the spec shows no subscribe operation, no event kinds, payload or delivery): the target's subscribe extension, if it offers one, and the sink that receives its notifications.",
    ),
  read_back: z
    .strictObject({ settle: duration('2s', 'How long to wait before reading a write back once more.') })
    .prefault({})
    .describe('Reading back what the run wrote (STORE-*): the spec promises no consistency delay either way, so a read that does not show a write yet is read again once after `settle` before it is judged.'),
  waivers: z
    .array(z.strictObject({ rule: ruleIdSchema, reason: z.string().min(1).describe('Why the deviation is accepted, e.g. a ticket.') }))
    .default([])
    .describe('Known, accepted deviations: the checks still run; a failure of a waived rule is reported as waived.'),
  timeouts: z
    .strictObject({
      connect: duration('10s', 'TCP and TLS.'),
      headers: duration('20s', 'To the response head.'),
      body: duration('20s', 'The longest silence within a body.'),
      exchange: duration('30s', 'The whole exchange, head and body (a body that trickles forever still ends).'),
    })
    .prefault({})
    .describe('How long the harness waits on the target.'),
}).meta({
  title: 'clockcheck target profile',
  description: 'What clockcheck knows of a target (docs/profiles.md). Every key is optional; the defaults certify a server that follows the spec and makes the weakest choices where the spec says "not shown".',
});

export type Profile = z.output<typeof profileSchema>;

const PROFILE_KEYS = zodKeys(profileSchema);

/** The profile of a target that gives nothing: all defaults. */
export function defaultProfile(): Profile {
  return profileSchema.parse({});
}

/** Parses profile text; errors name the file, line and key (with a "did you mean" for unknown keys). */
export function parseProfile(text: string, file: string): Profile {
  const source = parseYamlSource(text, file);
  const parsed = profileSchema.safeParse(source.value ?? {});
  if (parsed.success) return parsed.data;
  throw sourceErrorFromIssues(source, parsed.error.issues, PROFILE_KEYS, 'profile key');
}

export async function loadProfile(file: string): Promise<Profile> {
  return parseProfile(await readInputFile(file, file, MAX_PROFILE_BYTES, 'profile'), file);
}

/** The client's timeouts from the profile's: connect, response head, silence within a body, and the whole exchange. */
export function clientTimeouts(profile: Profile): { connectMs: number; headersMs: number; bodyMs: number; exchangeMs: number } {
  const { connect, headers, body, exchange } = profile.timeouts;
  return { connectMs: connect, headersMs: headers, bodyMs: body, exchangeMs: exchange };
}

/** The profile as it goes into a report: everything but secrets (a profile never holds the token). */
export function profileForReport(profile: Profile): Record<string, unknown> {
  return parseJsonExact(jsonText(profile)) as Record<string, unknown>;
}

/** Why the isolation checks are skipped without a second company: the one line the summary shows too. */
export const NO_SECOND_COMPANY = "isolation between companies was not certified: the profile names no second_company.token_env (a second company's administrator token), so no check read or wrote as another company";
