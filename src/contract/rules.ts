/**
 * The rule catalog: every normative statement of the spec
 * (`spec/time-tracking-public-api.md`) as a rule with a stable ID.
 *
 * basis `spec`: the spec states it; a conforming server must satisfy it.
 * basis `profile`: the spec says "not shown" (or leaves a choice open), so the expectation comes
 * from the target profile; the default expectation is the weakest sound one.
 *
 * IDs are stable: checks, faults, waivers and reports refer to them. Never renumber; retire instead.
 */
import { InternalError } from '../errors.ts';

export type RuleBasis = 'spec' | 'profile';

export type RuleFamily =
  | 'transport'
  | 'auth'
  | 'versioning'
  | 'schedule'
  | 'user'
  | 'password'
  | 'timesheet'
  | 'offset-timezone'
  | 'break'
  | 'pagination'
  | 'query'
  | 'webhook'
  | 'rate-limit'
  | 'errors'
  | 'records';

export interface Rule {
  readonly id: string;
  /** Spec section(s), e.g. `2.1` or `4.1, 2.1`. The first is the primary one. */
  readonly section: string;
  readonly family: RuleFamily;
  readonly basis: RuleBasis;
  /** The rule in one line, in the spec's own words where possible. */
  readonly statement: string;
}

/** Declares a rule; the ID keeps its literal type so `RuleId` is a union and typos do not compile. */
const rule = <const I extends string>(
  id: I,
  section: string,
  family: RuleFamily,
  basis: RuleBasis,
  statement: string,
): Rule & { readonly id: I } => ({ id, section, family, basis, statement });

export const RULES = [
  // §1, §5: transport, bodies, authentication, verbs
  rule('HTTPS-ONLY', '1, 5.6', 'transport', 'spec', 'The API is served over HTTPS only; plain HTTP requests get no API data.'),
  rule('JSON-RESPONSE', '1', 'transport', 'spec', 'Response bodies are JSON.'),
  rule('JSON-MALFORMED-REJECTED', '1', 'transport', 'spec', 'Request bodies are JSON: a body that is not valid JSON is rejected with a 4xx, never accepted or answered with a 5xx.'),
  rule('HEAD-SUPPORTED', '1', 'transport', 'spec', 'HEAD queries the HTTP headers of a GET route: it is answered without a body.'),
  rule('HEAD-PARITY', '1', 'transport', 'spec', 'HEAD answers with the same status as GET on the same URL.'),
  rule('HEAD-CONTENT-LENGTH', '1', 'transport', 'spec', "A HEAD answer's Content-Length, when it sends one, is the length of the body GET answers on the same URL (RFC 9110 §9.3.2, §8.6: the headers of HEAD are GET's)."),
  rule('JSON-REQUEST-MEDIA-TYPE', '1', 'transport', 'spec', 'A JSON request body is accepted with the media type clients send: application/json with or without a charset parameter, in any case (RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive).'),
  rule('PUT-PARTIAL', '1, 4.2', 'transport', 'spec', 'PUT is a partial update: fields absent from the body keep their stored values.'),
  rule('AUTH-REQUIRED', '5.1, 1', 'auth', 'spec', 'Every request must be authenticated: a request without the Authorization header is refused.'),
  rule('AUTH-TOKEN-VALID', '5.1, 5.4', 'auth', 'spec', 'A request with a token that was never issued (or was revoked) is refused.'),
  rule('AUTH-HEADER-RAW', '5.2', 'auth', 'spec', 'The token is sent as `Authorization: <ACCESS_TOKEN>`, the raw token with no scheme, and is accepted in that form.'),
  rule('AUTH-STATUS', '5, 7', 'auth', 'profile', 'The status of a refused authentication (spec: not shown; default: any 4xx other than 429, profile may require e.g. 401).'),

  // §1, §2.2, §5: secrets an answer never carries (the spec states the sensitivity; the rest is security practice, said in each statement)
  rule('SEC-TOKEN-NOT-RETURNED', '1, 5.5', 'auth', 'spec', 'Tokens are treated as highly sensitive (§1): no answer of the target (body or header, success or error, any route) and no webhook notification carries an access token a request was served with, in any encoding. §1 states the sensitivity; that no answer carries a token is security practice (an echoed header or a debug error page hands it to every log, cache and proxy that sees the answer). A never-issued token sent back leaks nothing and is not judged.'),
  rule('SEC-PASSWORD-NOT-RETURNED', '2.2, 1', 'password', 'spec', 'A password is input only (§2.2 lists it among the fields a create or edit accepts; the user record is not shown): the answer of an accepted user create or edit does not carry the password it sent, in any encoding, and no user record carries a non-null `password` (its hash included). That it is never sent back is security practice (OWASP API3:2023, excessive data exposure), not the spec\'s wording. A refused password sent back is not judged.'),

  // §1, §5.5: one company's token reaches its own company's records only (a second company's token in the profile; OWASP API1:2023)
  rule('ISO-LIST-SCOPED', '1, 5.5, 4.6', 'auth', 'spec', "A token is a company administrator's (§1, §5.3, §5.5), so its lists hold its company's records only: no list, search, `ids` or `date_range` query shows another company's record, and a query only another company's records match totals 0."),
  rule('ISO-ITEM-SCOPED', '1, 5.5, 4.1, 4.2', 'auth', 'spec', "A change by ID of another company's record (PUT /users/{userId}, PUT /schedules/{schedule_id}) is refused with a 4xx, its answer shows none of that record, and the record is unchanged when its own company reads it."),
  rule('ISO-REFERENCE-SCOPED', '1, 5.5, 2.1, 2.3, 4.4', 'auth', 'spec', "A create that references another company's record (a timesheet's user_id, a break's timesheet_id, a schedule's user_ids) is refused as one that references no record, where the same create referencing the caller's own record is accepted."),
  rule('ISO-FOREIGN-ID', '1, 7', 'auth', 'profile', "How a request naming another company's record is refused (spec: not shown; default any 4xx; the profile's second_company.foreign_ids may require the answer an ID that never existed gets, so the API is no oracle of which IDs exist, or a refusal of its own, 403)."),
  rule('ISO-WEBHOOK-SCOPED', '1, 2.6, 4.5, 6', 'auth', 'spec', "A company has its own webhook configuration (§2.6): a notification of one company's change goes to that company's configured URL only, never to another company's, and one company's unsubscribe (§4.5) deletes its own configuration only, so the other company's notifications go on."),

  // §9: versioning
  rule('VER-PUBLIC-PATH', '9, 1', 'versioning', 'spec', 'Documented operations live under `{base_url}/api/public` with no version label.'),
  rule('VER-VERSIONED-PATH', '9', 'versioning', 'profile', 'When versioning is in use, `/api/{api-version}/{resource}` serves the same resources (version labels: not shown; the profile names them).'),

  // §2.1, §4.1: schedules
  rule('SCH-ASSIGNED-BY-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `assigned_by` (integer) is required.'),
  rule('SCH-ASSIGNED-BY-ACTIVE', '2.1', 'schedule', 'spec', 'Schedule `assigned_by` is the ID of an active user: an inactive or unknown user is rejected.'),
  rule('SCH-TITLE-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `title` (string) is required.'),
  rule('SCH-REPEAT-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `repeat` (boolean) is required.'),
  rule('SCH-ALL-DAY-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `all_day` (boolean) is required.'),
  rule('SCH-COLOR-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `color` (string) is required.'),
  rule('SCH-USER-IDS-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `user_ids` (array of integers) is required.'),
  rule('SCH-USER-IDS-ACTIVE', '2.1', 'schedule', 'spec', 'Schedule `user_ids` are IDs of active users: an inactive or unknown user is rejected.'),
  rule('SCH-START-DATE-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `start_date` is required.'),
  rule('SCH-END-DATE-REQUIRED', '2.1, 4.1', 'schedule', 'spec', 'Schedule `end_date` is required.'),
  rule('SCH-DATE-FORMAT', '2.1, 4.1', 'schedule', 'spec', 'Schedule dates (`start_date`, `end_date`, `repeat_end_date`) are real calendar dates written `MM/DD/YYYY`.'),
  rule('SCH-TIME-FORMAT', '2.1, 4.1', 'schedule', 'spec', 'Schedule times (`start_time`, `end_time`) are `HH:mm`, 24-hour, 00:00 to 23:59.'),
  rule('SCH-TIMES-UNLESS-ALL-DAY', '2.1, 4.1', 'schedule', 'spec', '`start_time` and `end_time` are required unless `all_day` is true (and not required when it is).'),
  rule('SCH-REPEAT-FIELDS', '2.1, 4.1', 'schedule', 'spec', 'When `repeat` is true, `repeat_type` and `repeat_end_date` are required.'),
  rule('SCH-WEEKLY-WEEKS', '2.1, 4.1', 'schedule', 'spec', 'When `repeat_type` is `weekly`, `weeks` is required.'),
  rule('SCH-WEEKS-FORMAT', '2.1', 'schedule', 'spec', '`weeks` is comma-separated lowercase weekday names, e.g. `monday,wednesday`.'),
  rule('SCH-TIMEZONE-NAME', '2.1', 'schedule', 'spec', 'Schedule `timezone` is an IANA timezone name (e.g. `America/Chicago`); other values are rejected.'),
  rule('SCH-TIMEZONE-DEFAULT', '2.1, 4.1', 'schedule', 'spec', 'When schedule `timezone` is omitted, the company timezone applies.'),
  rule('SCH-FIELD-TYPES', '2.1', 'schedule', 'spec', 'Schedule fields have their stated types (integer, string, boolean, array of integers); a value of another type is rejected.'),
  rule('SCH-UPDATE-EVENT-PID', '4.1, 2.1', 'schedule', 'spec', 'On update (PUT /schedules/{id}) `event_pid` is required; on create it is optional.'),
  rule('SCH-UPDATE-CONDITIONALS', '4.1', 'schedule', 'spec', 'The conditional rules of create (times, repeat, weekly) apply to update too.'),
  rule('SCH-UPDATE-UNKNOWN', '4.1', 'schedule', 'spec', 'PUT /schedules/{id} updates an existing schedule: an unknown ID is rejected with a 4xx.'),

  // §2.2, §4.2, §8: users
  rule('USR-CREATE-REQUIRED', '4.2', 'user', 'spec', 'User create requires `first_name`, `last_name`, `email` and `password`.'),
  rule('USR-EMPLOYEE-CODE', '2.2, 8', 'user', 'spec', '`employee_code` is exactly 4 digits, on create and edit.'),
  rule('USR-ROLE-ID-VALUES', '2.2', 'user', 'spec', '`role_id` is 1 (Admin), 2 (Manager) or 3 (Employee); other values are rejected.'),
  rule('USR-ROLE-ID-DEFAULT', '2.2', 'user', 'spec', '`role_id` defaults to 3 (Employee).'),
  rule('USR-TRACK-LOCATION-DEFAULT', '2.2', 'user', 'spec', '`track_location` defaults to false.'),
  rule('USR-TRACK-MILEAGE-DEFAULT', '2.2', 'user', 'spec', '`track_mileage` defaults to false.'),
  rule('USR-PAY-RATE-DEFAULT', '2.2', 'user', 'spec', '`pay_rate` defaults to 0.'),
  rule('USR-BILLING-RATE-TYPE-VALUES', '2.2', 'user', 'spec', '`billing_rate_type` is 0 (hourly) or 1 (daily); other values are rejected.'),
  rule('USR-BILLING-RATE-TYPE-DEFAULT', '2.2', 'user', 'spec', '`billing_rate_type` defaults to 0 (hourly).'),
  rule('USR-CUSTOM-FIELDS-SHAPE', '2.2', 'user', 'spec', '`custom_fields` is an object mapping string keys to string values.'),
  rule('USR-FIELD-TYPES', '2.2', 'user', 'spec', 'User fields have their stated types (string, integer, boolean); a value of another type is rejected.'),
  rule('USR-EDIT-UNKNOWN', '4.2', 'user', 'spec', 'PUT /users/{userId} edits an existing user: an unknown ID is rejected with a 4xx.'),
  rule('USR-EDIT-REQUIRED', '4.2', 'user', 'profile', 'Whether user edit requires `first_name`, `last_name`, `email`, `password` (spec: not shown which statement governs; the profile declares `user_edit_required: all-four | none`; default `either`: both readings pass).'),
  rule('USR-EMAIL-FORMAT', '2.2', 'user', 'profile', 'Whether a malformed `email` is rejected (spec: not shown; the profile declares `user_email_format: validated | not-validated`; default `either`: not asserted).'),
  rule('USR-LIST-FILTER-ACTIVE', '4.2, 4.6', 'query', 'spec', 'GET /users?active=1 returns only active users.'),
  rule('USR-LIST-FILTER-ROLE', '4.2, 4.6', 'query', 'spec', 'GET /users?role=N returns only users with that role.'),

  // §2.2, §8: password
  rule('USR-PASSWORD-LENGTH', '2.2, 8', 'password', 'spec', '`password` has at least 6 characters, on create and edit.'),
  rule('USR-PASSWORD-CLASSES', '2.2, 8', 'password', 'spec', '`password` contains a lowercase letter, an uppercase letter, a digit and a special character, on create and edit.'),

  // §2.3, §4.3: timesheets
  rule('TS-CREATE-REQUIRED', '4.3, 2.3', 'timesheet', 'spec', 'Timesheet create requires `user_id` and `start`; all other fields are optional.'),
  rule('TS-DATETIME-FORMAT', '2.3', 'timesheet', 'spec', 'Timesheet `start` and `end` are ISO 8601 with offset, `YYYY-MM-DDTHH:MM:SS±HH:MM`.'),
  rule('TS-END-NULLABLE', '2.3', 'timesheet', 'spec', 'Timesheet `end` may be null or absent (an open timesheet).'),
  rule('TS-TIMEZONE-NAME', '2.3', 'timesheet', 'spec', '`clock_in_timezone` and `clock_out_timezone` are IANA timezone names (`clock_out_timezone` may be null).'),
  rule('TS-FIELD-TYPES', '2.3', 'timesheet', 'spec', 'Timesheet fields have their stated types (integer IDs, string notes, float mileage); a value of another type is rejected.'),
  rule('TS-USER-EXISTS', '2.3', 'timesheet', 'spec', 'Timesheet `user_id` is the ID of a user: an unknown ID is rejected.'),
  rule('TS-OFFSET-MATCHES-TIMEZONE', '4.3', 'offset-timezone', 'spec', 'The offset of `start` must equal the real UTC offset of `clock_in_timezone` at that instant (DST included), and that of `end` the offset of `clock_out_timezone`.'),
  rule('TS-OFFSET-DEFAULT-TIMEZONE', '4.3, 2.3', 'offset-timezone', 'spec', 'Without a timezone for a value, the company timezone applies: its offset must match the company timezone at that instant.'),

  // §2.4, §4.4: breaks
  rule('BRK-CREATE-REQUIRED', '4.4', 'break', 'spec', 'Break create requires `timesheet_id`, `break_rule_id`, `start` and `end`.'),
  rule('BRK-DATETIME-FORMAT', '4.4, 2.4', 'break', 'spec', 'Break `start` and `end` are ISO 8601 with offset, in requests and responses.'),
  rule('BRK-WITHIN-TIMESHEET', '1, 2.4', 'break', 'spec', 'A break is an interval inside its timesheet: one outside the timesheet\'s start and end is rejected.'),
  rule('BRK-REFERENCES-EXIST', '4.4', 'break', 'spec', 'Break `timesheet_id` and `break_rule_id` name an existing timesheet and break rule: unknown IDs are rejected.'),
  rule('BRK-END-AFTER-START', '2.4', 'break', 'profile', 'Whether a break whose end precedes its start is rejected (spec: not shown; default: it must not be stored with a negative duration).'),
  rule('BRK-LIST-SHAPE', '2.4, 4.4', 'break', 'spec', 'A listed break has `id`, `start`, `end`, `break_rule_id`, `duration_in_seconds`, `created_at`, `updated_at`.'),
  rule('BRK-CREATE-SHAPE', '2.4, 4.4', 'break', 'spec', 'A created break has the listed fields, with `duration` in place of `duration_in_seconds`, plus `timesheet_id`.'),
  rule('BRK-DURATION', '2.4', 'break', 'spec', 'A break\'s duration (`duration_in_seconds` listed, `duration` created) is end minus start, in whole seconds.'),
  rule('BRK-TIMESTAMP-FORMAT', '2.4', 'break', 'spec', 'Break `created_at` and `updated_at` are `YYYY-MM-DDTHH:MM:SS` without offset.'),
  rule('BRK-CREATE-RESPONSE', '4.4', 'break', 'spec', 'POST /breaks answers a JSON object with `items` (the created break) and `message` (a string).'),
  rule('BRK-LIST-RESPONSE', '4.4, 2.5', 'break', 'spec', 'GET /breaks answers a JSON object with `meta_data.pagination` and `items` (an array of breaks).'),
  rule('BRK-IDS-FILTER', '4.4', 'break', 'spec', 'GET /breaks with a body `ids` returns only the breaks with those IDs.'),
  rule('BRK-IDS-ALL', '4.4', 'break', 'spec', 'GET /breaks with `ids` null, empty or absent returns all available breaks.'),

  // §2.5, §4.6, §8: pagination
  rule('PAG-BLOCK-FIELDS', '2.5', 'pagination', 'spec', '`meta_data.pagination` has current_page, first_page_url, from, last_page, last_page_url, next_page_url, path, per_page, prev_page_url, to, total, options, with their types.'),
  rule('PAG-BLOCK-CONSISTENT', '2.5', 'pagination', 'spec', 'The pagination block agrees with itself and the page: from/to index the items shown, total counts all items, last_page = ceil(total / per_page).'),
  rule('PAG-LINKS', '2.5', 'pagination', 'spec', 'first/last/next/prev page URLs lead to the pages they name.'),
  rule('PAG-PAGE-DEFAULT', '4.6, 8', 'pagination', 'spec', '`page` is 1-based and defaults to 1.'),
  rule('PAG-PAGE-SIZE-DEFAULT', '4.6, 8', 'pagination', 'spec', '`page_size` defaults to 10.'),
  rule('PAG-PAGE-SIZE-MAX', '4.6, 8', 'pagination', 'spec', '`page_size` is at most 100: a larger value is clamped or rejected, never served; 100 itself, the maximum, is served.'),
  rule('PAG-WALK', '2.5, 4.6', 'pagination', 'spec', 'Walking all pages yields every item exactly once: no overlap, no gap.'),

  // §4.6: sorting, searching, filtering
  rule('SORT-ASCENDING', '4.6', 'query', 'spec', '`sort=name` sorts ascending by that field.'),
  rule('SORT-DESCENDING', '4.6', 'query', 'spec', 'A leading `-` on a sort name sorts descending.'),
  rule('SORT-MULTI', '4.6', 'query', 'spec', 'Several comma-separated sort names sort by each in turn.'),
  rule('SORT-FIELD-NAMES', '4.2, 4.6', 'query', 'profile', 'Which spelling of sortable names the target uses (spec shows `firstName`, `roleId`; the profile may name `first_name`, `role_id`).'),
  rule('SEARCH-MATCHES', '4.6', 'query', 'spec', '`search` returns the items that match the value.'),
  rule('DATE-RANGE', '4.6, 4.3', 'query', 'spec', '`date_range=Y-m-d,Y-m-d` returns the items between the two dates.'),
  rule('DATE-RANGE-INVALID', '4.6', 'query', 'profile', 'How a malformed `date_range` is answered (spec: not shown; default: a 4xx or the filter ignored, never a 5xx).'),

  // §2.6, §4.5, §6: webhook
  rule('WH-UNSUBSCRIBE', '4.5, 6', 'webhook', 'spec', 'DELETE /webhooks/subscription/unsubscribe removes the webhook subscription.'),
  rule('WH-NOTIFICATIONS-STOP', '4.5, 6', 'webhook', 'profile', "After unsubscribe no notification is sent: changes made after it reach the profile's webhook sink within no quiet period (observable only with a sink the profile declares)."),
  rule('WH-NOTIFICATION-ARRIVES', '6, 4.5', 'webhook', 'profile', "A subscription sends notifications to its URL: a created and an edited user are each notified to the profile's webhook sink within its delivery delay (kinds of event, delivery: not shown; default: as the service publishes)."),
  rule('WH-SIGNATURE', '6', 'webhook', 'profile', "Each notification is signed as the profile's webhook.notification.signature declares (not shown; default: the service's published form, `x-webhook-timestamp` a Unix time within the profile's tolerance and `x-webhook-signature` the hex HMAC-SHA256 of timestamp + body with the subscription's secret), judged when the profile names webhook.secret_env and the form signs."),
  rule('WH-PAYLOAD-SHAPE', '6', 'webhook', 'profile', "A notification body names the resource that changed, in the form of the profile's webhook.notification: its ID, the operation (`<category>_created` or `_updated`) and its category (payload: not shown; default: the service's published `{payload: {event, data: {id, operation, last_updated_at}}}`, `last_updated_at` a Unix time or false)."),

  // §7, §8: rate limit
  rule('RATE-LIMIT-CAP', '8, 7', 'rate-limit', 'spec', 'At most 60 calls are served within any one-minute window.'),
  rule('RATE-LIMIT-QUOTA', '8', 'rate-limit', 'spec', '60 calls within a one-minute window are all served: the limit is not stricter than 60.'),
  rule('RATE-LIMIT-STATUS', '7, 8', 'rate-limit', 'spec', 'A call beyond the limit gets status 429 (Too Many Attempts).'),
  rule('RATE-LIMIT-SLIDING', '8', 'rate-limit', 'spec', 'The limit holds in ANY one-minute window (sliding), so no 60-second interval serves more than 60 calls across a fixed-window boundary.'),
  rule('RATE-LIMIT-RESET', '8', 'rate-limit', 'spec', 'Once the window since the earlier calls has passed, calls are served again.'),
  rule('RATE-LIMIT-REFUSED', '8, 7', 'rate-limit', 'spec', 'Calls refused for their token count toward the limit too (§8: all requests): a burst of limit + 1 calls with a missing token, or with one wrong token repeated, is answered 429 at or before its last call, not 401 for ever. A limit stricter for refused calls than for served ones conforms.'),
  rule('RATE-LIMIT-BODY', '7', 'rate-limit', 'profile', 'The 429 body says "Too Many Attempts" (error shape: not shown; default: not asserted).'),

  // §7: errors and success codes the spec leaves open
  rule('ERR-VALIDATION-STATUS', '7', 'errors', 'profile', 'A payload that breaks a field rule is rejected with a 4xx other than 429 (exact code: not shown; the profile may require e.g. 422).'),
  rule('ERR-NO-SERVER-ERROR', '7', 'errors', 'profile', 'Bad input is answered with a 4xx, never a 5xx (spec: not shown; HTTP semantics).'),
  rule('ERR-SUCCESS-STATUS', '7', 'errors', 'profile', 'Each operation succeeds with a 2xx (exact codes: not shown; the profile may require e.g. 201 on create).'),
  rule('ERR-BODY-SHAPE', '7', 'errors', 'profile', 'Shape of an error body (spec: not shown; default: any JSON).'),

  // §4: the IDs of the records the API creates
  rule('ID-INTEGER', '4.2, 4.1, 4.4, 2.3', 'records', 'spec', 'The ID a create answer gives a user, schedule or timesheet is an integer, read by meaning (`"42"` is 42; negative and beyond 2^53 are integers): userId and schedule_id are integer path parameters (§4.2, §4.1), user_id and timesheet_id integer references (§2.3, §4.4).'),

  // §1, §2, §4: what is written reads back (the records are "not shown": a field the read shows is judged, an absent one is not)
  rule('STORE-CREATE', '1, 2.2, 2.3, 4.4', 'records', 'spec', 'A created record reads back with what the create wrote: each field a read shows holds the value sent, by meaning, and a field left out holds its default of §2.2 (a server may add fields and choose representations, never change a value).'),
  rule('STORE-EDIT', '1, 4.2', 'records', 'spec', 'An accepted edit shows in the next read: each field it wrote reads back with the value sent (PUT is an update, §1), not the value before it.'),
  rule('STORE-TEXT', '1, 2.2, 2.3', 'records', 'spec', 'Text reads back as written, character for character in any script (accents, CJK, emoji, combining marks): never normalized, re-encoded, cut or stripped.'),
  rule('STORE-NUMBER', '2.2, 2.3', 'records', 'spec', 'Numbers read back equal to what was written: a float (mileage, §2.3) keeps its fraction, an integer is not rounded or changed.'),
  rule('STORE-DATETIME', '2.3, 2.4, 4.4', 'records', 'spec', 'A datetime written with an offset reads back as the same instant (the offset it is shown in may differ).'),
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

/**
 * The rule with this ID.
 * @throws InternalError on an unknown ID: a typo in a fault, check or the spec model is a bug (what a user types is checked with isRuleId).
 */
export function ruleById(id: string): Rule {
  const found = RULES_BY_ID.get(id);
  if (!found) throw new InternalError(`unknown rule ID ${id}: the rule catalog (src/contract/rules.ts) holds no such rule`);
  return found;
}

/** True when `id` names a rule of the catalog. */
export function isRuleId(id: string): id is RuleId {
  return RULES_BY_ID.has(id);
}
