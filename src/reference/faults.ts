import type { RuleId } from '../contract/rules.ts';
import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';
import type { Dialect } from './dialect.ts';
import { isLoadFaultName, LOAD_FAULTS, type LoadFaultName } from './load-faults.ts';

/**
 * Injected faults of the reference server. Each one breaks exactly one spec rule (its `rule`),
 * so a harness that certifies the faulty server must fail a check of that rule.
 * `observable` says what kind of check can see it: a fixed example (`scenario`), only generated
 * cases (`property`), or only a burst (`burst`).
 */
export interface Fault {
  readonly name: string;
  readonly rule: RuleId;
  readonly description: string;
  readonly observable: 'scenario' | 'property' | 'burst';
  /**
   * Whether the fault changes anything in a dialect: one that makes the choice the dialect already
   * makes (validating no e-mails where the dialect validates none) is no fault there. Default: always.
   */
  readonly appliesTo: (dialect: Dialect) => boolean;
}

const everywhere = (): boolean => true;

/** Declares a fault; the name keeps its literal type so `FaultName` is a union. */
const fault = <const N extends string>(
  name: N,
  rule: RuleId,
  observable: Fault['observable'],
  description: string,
  appliesTo: Fault['appliesTo'] = everywhere,
): Fault & { readonly name: N } => ({
  name,
  rule,
  description,
  observable,
  appliesTo,
});

export const FAULTS = [
  // rate limiting (§7, §8)
  fault('rate-limit-off', 'RATE-LIMIT-CAP', 'burst', 'No rate limit at all: every call is served.'),
  fault('rate-limit-one-extra', 'RATE-LIMIT-CAP', 'burst', 'Off by one: 61 calls are served in a window.'),
  fault('rate-limit-race', 'RATE-LIMIT-CAP', 'burst', 'Check and record are not atomic: a concurrent burst gets more than 60 through.'),
  fault('rate-limit-too-strict', 'RATE-LIMIT-QUOTA', 'burst', 'Only 59 calls are served in a window.'),
  fault('rate-limit-wrong-status', 'RATE-LIMIT-STATUS', 'burst', 'Calls beyond the limit get 503 instead of 429.'),
  fault('rate-limit-silent-body', 'RATE-LIMIT-BODY', 'burst', 'The 429 body says "Rate limit exceeded." instead of "Too Many Attempts" (§7; asserted when the profile sets rate_limit.body_text).'),
  fault('rate-limit-never-resets', 'RATE-LIMIT-RESET', 'burst', 'Once limited, always limited: a refused token is never served again (a block without expiry).'),
  fault('rate-limit-fixed-window', 'RATE-LIMIT-SLIDING', 'burst', 'A fixed window starting at the first call (Laravel style): up to 119 calls in one window-length interval.'),
  fault('rate-limit-clock-window', 'RATE-LIMIT-SLIDING', 'burst', 'A fixed window aligned to the clock (a counter per minute): up to 119 calls across the minute boundary.'),

  // authentication (§5)
  fault('auth-missing-accepted', 'AUTH-REQUIRED', 'scenario', 'A request without an Authorization header is served.'),
  fault('auth-any-token', 'AUTH-TOKEN-VALID', 'scenario', 'Any non-empty token is accepted.'),
  fault('auth-bearer-only', 'AUTH-HEADER-RAW', 'scenario', 'Only `Authorization: Bearer <token>` is accepted; the raw token is refused.'),

  // transport, JSON, HEAD, versioning (§1, §9)
  fault('plain-http-served', 'HTTPS-ONLY', 'scenario', 'The API is also served over plain HTTP on the same port.'),
  fault('malformed-json-500', 'JSON-MALFORMED-REJECTED', 'scenario', 'A body that is not JSON crashes the handler: 500.'),
  fault('errors-not-json', 'JSON-RESPONSE', 'scenario', 'Error responses are HTML, not JSON.'),
  fault('head-unsupported', 'HEAD-SUPPORTED', 'scenario', 'HEAD is answered 405 Method Not Allowed.'),
  fault('head-status-mismatch', 'HEAD-PARITY', 'scenario', 'HEAD answers 200 even where GET answers an error.'),
  fault('versioned-path-missing', 'VER-VERSIONED-PATH', 'scenario', 'The versioned prefix /api/v2 is not served.'),

  // schedules (§2.1, §4.1)
  fault('date-format-lenient', 'SCH-DATE-FORMAT', 'scenario', 'Schedule dates are parsed leniently: YYYY-MM-DD and unpadded M/D/YYYY are accepted.'),
  fault('date-calendar-unchecked', 'SCH-DATE-FORMAT', 'scenario', 'Schedule dates are checked by shape only: 02/30/2026 and 13/45/2026 are accepted.'),
  fault('time-24-00-accepted', 'SCH-TIME-FORMAT', 'scenario', 'Times are checked as [0-2]d:[0-5]d: 24:00 and 29:59 are accepted.'),
  fault('time-12h-accepted', 'SCH-TIME-FORMAT', 'scenario', '12-hour times with AM/PM are accepted.'),
  fault('weeks-format-unchecked', 'SCH-WEEKS-FORMAT', 'scenario', '`weeks` is not checked: any string is accepted.'),
  fault('timezone-name-unchecked', 'SCH-TIMEZONE-NAME', 'scenario', 'Schedule `timezone` is not checked: any string is accepted.'),
  fault('timezone-default-utc', 'SCH-TIMEZONE-DEFAULT', 'scenario', 'An omitted schedule timezone becomes UTC instead of the company timezone.'),
  fault('all-day-times-not-required', 'SCH-TIMES-UNLESS-ALL-DAY', 'scenario', 'Times are never required, even when all_day is false.'),
  fault('all-day-times-required-anyway', 'SCH-TIMES-UNLESS-ALL-DAY', 'scenario', 'Times are required even when all_day is true.'),
  fault('repeat-end-date-not-required', 'SCH-REPEAT-FIELDS', 'scenario', 'repeat_end_date is not required when repeat is true.'),
  fault('weekly-weeks-not-required', 'SCH-WEEKLY-WEEKS', 'scenario', 'weeks is not required when repeat_type is weekly.'),
  fault('update-event-pid-not-required', 'SCH-UPDATE-EVENT-PID', 'scenario', 'PUT /schedules/{id} accepts a body without event_pid.'),
  fault('update-conditionals-skipped', 'SCH-UPDATE-CONDITIONALS', 'scenario', 'PUT /schedules/{id} skips the conditional rules.'),
  fault('inactive-user-assignable', 'SCH-USER-IDS-ACTIVE', 'scenario', 'Inactive users are accepted in user_ids.'),
  fault('color-not-required', 'SCH-COLOR-REQUIRED', 'scenario', 'A schedule without color is accepted.'),

  // users and passwords (§2.2, §4.2, §8)
  fault('password-special-not-required', 'USR-PASSWORD-CLASSES', 'scenario', 'A password without a special character is accepted.'),
  fault('password-min-5', 'USR-PASSWORD-LENGTH', 'scenario', 'Passwords of 5 characters are accepted.'),
  fault('password-unchecked-on-edit', 'USR-PASSWORD-CLASSES', 'scenario', 'PUT /users/{id} does not check the password rules.'),
  fault('employee-code-length-unchecked', 'USR-EMPLOYEE-CODE', 'scenario', 'employee_code of any number of digits is accepted.'),
  fault('employee-code-non-digits', 'USR-EMPLOYEE-CODE', 'scenario', 'employee_code of any 4 characters is accepted.'),
  fault('role-id-default-admin', 'USR-ROLE-ID-DEFAULT', 'scenario', 'A user created without role_id becomes an Admin (1) instead of an Employee (3).'),
  fault('role-id-unchecked', 'USR-ROLE-ID-VALUES', 'scenario', 'Any integer role_id is accepted.'),
  fault('track-location-default-true', 'USR-TRACK-LOCATION-DEFAULT', 'scenario', 'track_location defaults to true.'),
  fault('pay-rate-default-null', 'USR-PAY-RATE-DEFAULT', 'scenario', 'pay_rate defaults to null instead of 0.'),
  fault('billing-rate-type-unchecked', 'USR-BILLING-RATE-TYPE-VALUES', 'scenario', 'Any integer billing_rate_type is accepted.'),
  fault('email-not-required', 'USR-CREATE-REQUIRED', 'scenario', 'A user without email is accepted.'),
  fault('user-put-replaces', 'PUT-PARTIAL', 'scenario', 'PUT /users/{id} replaces the record: omitted fields fall back to their defaults or null.'),
  fault('email-format-unchecked', 'USR-EMAIL-FORMAT', 'scenario', 'A malformed e-mail is accepted on create and on edit although the dialect validates e-mails.', (d) => d.emailFormat === 'validated'),
  fault('edit-requires-all-four', 'USR-EDIT-REQUIRED', 'scenario', "PUT /users/{id} without first_name, last_name, email or password is rejected (422) although the dialect's reading is `none`.", (d) => d.editRequires === 'none'),

  // timesheets and offset/timezone (§2.3, §4.3)
  fault('timesheet-naive-datetime', 'TS-DATETIME-FORMAT', 'scenario', 'Timesheet start/end without an offset are accepted.'),
  fault('timesheet-end-null-rejected', 'TS-END-NULLABLE', 'scenario', 'A timesheet with end null is rejected.'),
  fault('timesheet-unknown-user', 'TS-USER-EXISTS', 'scenario', 'A timesheet for an unknown user_id is accepted.'),
  fault('offset-unchecked', 'TS-OFFSET-MATCHES-TIMEZONE', 'scenario', 'The offset is not compared with clock_in_timezone/clock_out_timezone.'),
  fault('offset-dst-blind', 'TS-OFFSET-MATCHES-TIMEZONE', 'scenario', "The offset is compared with the zone's standard offset, ignoring DST."),
  fault('offset-day-granular', 'TS-OFFSET-MATCHES-TIMEZONE', 'property', "The offset is compared with the zone's offset at local midnight of that day: wrong only on DST transition days."),
  fault('end-offset-uses-clock-in', 'TS-OFFSET-MATCHES-TIMEZONE', 'scenario', 'The offset of end is compared with clock_in_timezone instead of clock_out_timezone.'),
  fault('offset-default-utc', 'TS-OFFSET-DEFAULT-TIMEZONE', 'scenario', 'Without a timezone, offsets are compared with UTC instead of the company timezone.'),

  // breaks (§2.4, §4.4)
  fault('break-list-duration-name', 'BRK-LIST-SHAPE', 'scenario', 'Listed breaks carry `duration` instead of `duration_in_seconds`.'),
  fault('break-create-no-timesheet-id', 'BRK-CREATE-SHAPE', 'scenario', 'The created break omits timesheet_id.'),
  fault('break-duration-minutes', 'BRK-DURATION', 'scenario', 'Break durations are given in minutes.'),
  fault('break-timestamps-with-offset', 'BRK-TIMESTAMP-FORMAT', 'scenario', 'created_at/updated_at carry an offset (`Z`).'),
  fault('break-outside-timesheet', 'BRK-WITHIN-TIMESHEET', 'scenario', 'Breaks outside their timesheet are accepted.'),
  fault('break-naive-datetime', 'BRK-DATETIME-FORMAT', 'scenario', 'Break start/end without an offset are accepted.'),
  fault('break-unknown-rule', 'BRK-REFERENCES-EXIST', 'scenario', 'An unknown break_rule_id is accepted.'),
  fault('break-ids-ignored', 'BRK-IDS-FILTER', 'scenario', 'The `ids` body of GET /breaks is ignored: all breaks are returned.'),
  fault('break-ids-empty-none', 'BRK-IDS-ALL', 'scenario', 'GET /breaks with `ids: []` returns no breaks.'),
  fault('break-create-no-message', 'BRK-CREATE-RESPONSE', 'scenario', 'POST /breaks answers without `message`.'),

  // pagination (§2.5, §4.6, §8)
  fault('page-size-uncapped', 'PAG-PAGE-SIZE-MAX', 'scenario', 'page_size above 100 is served in full.'),
  fault('page-size-default-15', 'PAG-PAGE-SIZE-DEFAULT', 'scenario', 'The default page_size is 15.'),
  fault('pages-overlap', 'PAG-WALK', 'scenario', "Each page after the first starts with the previous page's last item."),
  fault('pagination-total-of-page', 'PAG-BLOCK-CONSISTENT', 'scenario', '`total` counts the items of the page, not all items.'),
  fault('pagination-field-missing', 'PAG-BLOCK-FIELDS', 'scenario', 'The pagination block has no last_page_url.'),
  fault('page-zero-based', 'PAG-PAGE-DEFAULT', 'scenario', 'page is 0-based: page=1 returns the second page.'),
  fault('next-page-url-stuck', 'PAG-LINKS', 'scenario', 'next_page_url points at the current page.'),

  // sorting, searching, filtering (§4.2, §4.6)
  fault('sort-ignored', 'SORT-ASCENDING', 'scenario', '`sort` is ignored: items come in ID order.'),
  fault('sort-descending-ignored', 'SORT-DESCENDING', 'scenario', 'A leading `-` is ignored: always ascending.'),
  fault('sort-multi-ignored', 'SORT-MULTI', 'scenario', 'Only the first sort name is used.'),
  fault('search-ignored', 'SEARCH-MATCHES', 'scenario', '`search` is ignored.'),
  fault('filter-active-ignored', 'USR-LIST-FILTER-ACTIVE', 'scenario', 'The `active` filter is ignored.'),
  fault('filter-role-ignored', 'USR-LIST-FILTER-ROLE', 'scenario', 'The `role` filter is ignored.'),
  fault('date-range-ignored', 'DATE-RANGE', 'scenario', '`date_range` is ignored.'),

  // webhook (§4.5)
  fault('unsubscribe-keeps-subscription', 'WH-UNSUBSCRIBE', 'scenario', 'Unsubscribe answers success but the subscription stays.'),
  fault('notifications-after-unsubscribe', 'WH-NOTIFICATIONS-STOP', 'scenario', 'Unsubscribe removes the subscription, but changes are still notified to its URL, signed with its secret.'),
  fault('webhook-wrong-signature', 'WH-SIGNATURE', 'scenario', "The signature covers other content than the form's: the body without the timestamp (published form), or the body re-serialized with indentation (a form that signs no timestamp)."),
  fault('webhook-unsigned', 'WH-SIGNATURE', 'scenario', 'Notifications carry no signature headers although the subscription has a secret.'),
  fault('webhook-payload-no-id', 'WH-PAYLOAD-SHAPE', 'scenario', "The notification body has no ID where the form names it (published: `payload.data` without `id`)."),

  // valid values at the edge of their domain, refused (issue 35: each must be reported under its own field's rule alone)
  fault('time-2359-refused', 'SCH-TIME-FORMAT', 'scenario', 'A schedule time of 23:59, the last minute of the day, is refused as malformed.'),
  fault('weeks-single-refused', 'SCH-WEEKS-FORMAT', 'scenario', '`weeks` of one weekday name (no comma) is refused as malformed.'),
  fault('leap-day-refused', 'SCH-DATE-FORMAT', 'scenario', 'February 29th is refused as a date, even in a leap year.'),
  fault('password-six-refused', 'USR-PASSWORD-LENGTH', 'scenario', 'A password of exactly 6 characters (the minimum) is refused as too short.'),
  fault('page-size-100-refused', 'PAG-PAGE-SIZE-MAX', 'scenario', 'page_size=100, the maximum, is refused (422) as if it were above it.'),

  // what is written reads back (issue 37: each shows only with particular data or after an edit, and only in a read)
  fault('user-edit-fillable', 'STORE-EDIT', 'scenario', 'PUT /users/{id} stores only first_name, last_name, email and password (an update whitelist); the other fields it sent are in its answer but never stored.'),
  fault('text-outside-bmp-lost', 'STORE-TEXT', 'scenario', 'Stored text loses every character outside the Basic Multilingual Plane (a 3-byte UTF-8 column): an emoji reads back as "?".'),
  fault('text-nfc-normalized', 'STORE-TEXT', 'scenario', 'Stored text is normalized to NFC: a letter written with a combining mark reads back composed.'),
  fault('mileage-rounded', 'STORE-NUMBER', 'scenario', 'A timesheet\'s mileage is stored rounded to a whole number (an integer column): 12.75 reads back as 13.'),
  fault('break-times-company-offset', 'STORE-DATETIME', 'scenario', "A break's start and end are stored as wall times: read back with the company timezone's offset instead of the one written, another instant wherever the two differ."),
  fault('phone-digits-only', 'STORE-TEXT', 'scenario', 'A phone number is stored with its digits only: "555-0100" reads back as "5550100".'),
  fault('notes-cut-255', 'STORE-TEXT', 'scenario', "A timesheet's notes are cut to 255 characters without a word (a VARCHAR(255) in a non-strict database)."),
  fault('clock-out-timezone-from-clock-in', 'STORE-CREATE', 'scenario', 'clock_out_timezone is stored as clock_in_timezone (a copy-paste slip): wrong wherever a timesheet names two different zones.'),
  fault('text-html-escaped', 'STORE-TEXT', 'scenario', 'Stored text is HTML-escaped (a sanitizing middleware): "O\'Brien" reads back as "O&#039;Brien", "R&D" as "R&amp;D".'),
  fault('user-list-stale-after-edit', 'STORE-EDIT', 'scenario', 'GET /users answers from a cache kept per query that a create clears and an edit does not: a list read again after an edit shows the user as it was.'),
  fault('track-mileage-not-stored', 'STORE-CREATE', 'scenario', 'track_mileage is never stored on create: a user created with track_mileage true reads back false.'),

  // edges of a domain (issue 37: each shows only with a value at the edge of its domain)
  fault('password-length-utf16', 'USR-PASSWORD-LENGTH', 'scenario', 'A password\'s length is counted in UTF-16 code units: 5 characters, one of them an emoji, pass as 6.'),
  fault('password-length-bytes', 'USR-PASSWORD-LENGTH', 'scenario', 'A password\'s length is counted in UTF-8 bytes: 5 characters, one of them an accented letter, pass as 6.'),
  fault('password-special-subset', 'USR-PASSWORD-CLASSES', 'scenario', 'Only !@#$%^&*-_+=? count as special characters (a list in the code): a password whose only special character is other ASCII punctuation (~) is refused.'),
  fault('leap-century-accepted', 'SCH-DATE-FORMAT', 'scenario', 'Leap years are every fourth year: 02/29/2100 is accepted.'),
  fault('leap-2000-refused', 'SCH-DATE-FORMAT', 'scenario', 'Century years are never leap years: 02/29/2000 is refused.'),
  fault('page-not-number-500', 'ERR-NO-SERVER-ERROR', 'scenario', 'A `page` that is not a number crashes the list (page=abc: 500).'),
  fault('sort-unknown-500', 'ERR-NO-SERVER-ERROR', 'scenario', 'A `sort` name the list does not know crashes it (500) instead of being refused or ignored.'),
  fault('date-range-end-exclusive', 'DATE-RANGE', 'scenario', "`date_range` leaves out its last day (a `<` where `<=` was meant): wrong where the profile reads the ends as inclusive."),
  fault('head-content-length-zero', 'HEAD-CONTENT-LENGTH', 'scenario', 'HEAD answers `Content-Length: 0` where GET sends a body (RFC 9110 §9.3.2: it must be GET\'s length or absent).'),
  fault('json-charset-refused', 'JSON-REQUEST-MEDIA-TYPE', 'scenario', 'A JSON body sent as `application/json; charset=utf-8` is refused (415): only the bare media type is accepted.'),
  fault('json-media-type-case-sensitive', 'JSON-REQUEST-MEDIA-TYPE', 'scenario', 'The media type is compared case-sensitively: a body sent as `Application/JSON` is refused (415).'),
  fault('sort-id-as-text', 'SORT-ASCENDING', 'scenario', 'Sorting by id compares the IDs as text: 10 comes before 9 (shows only once a list holds IDs of different digit counts).'),
  fault('break-ids-first-ten', 'BRK-IDS-FILTER', 'scenario', 'GET /breaks lists the breaks of the first ten `ids` only (a hardcoded limit): asked for more, it leaves the rest out.'),
  fault('last-page-extra-when-exact', 'PAG-BLOCK-CONSISTENT', 'scenario', 'last_page is floor(total / per_page) + 1: one page too many, an empty one, when the page size divides the total exactly.'),
  fault('filter-active-false-ignored', 'USR-LIST-FILTER-ACTIVE', 'scenario', 'The `active` filter works for 1 only: active=0 (a falsy value) lists every user.'),
  fault('filter-role-manager-ignored', 'USR-LIST-FILTER-ROLE', 'scenario', 'The `role` filter knows 1 and 3 only: role=2 lists every user.'),

  // secrets an answer never carries (§1, §2.2; issue 49). New faults go at the end: the budget's fitted half is every other fault of this list (plan/fault-catches.ts)
  fault('debug-error-echoes-headers', 'SEC-TOKEN-NOT-RETURNED', 'scenario', "Error answers carry a debug block with the request's URL and its Authorization header (a framework's debug mode left on in production): every refused write hands out the token."),
  fault('user-password-echoed', 'SEC-PASSWORD-NOT-RETURNED', 'scenario', 'The answer of a user create or edit is built from the request body merged over the record (a serializer fed the input): the password the write sent comes back in it.'),
  fault('user-password-hash-shown', 'SEC-PASSWORD-NOT-RETURNED', 'scenario', "User records carry `password`, the stored hash: the model's hidden-fields list forgot the column, so every answer that shows a user shows it."),

  // §8 with §5: refused calls count too
  fault('rate-limit-skips-refused', 'RATE-LIMIT-REFUSED', 'burst', 'The throttle middleware is registered after the auth middleware: a request refused for its token (missing or wrong) is answered 401 and never counted, so a client may try tokens without end.'),

  // one company's token reaches another company's records (§1, §5.5; OWASP API1:2023): each the backend bug at one spot of the company scope (companies/company-scope.ts)
  fault('search-index-unscoped', 'ISO-LIST-SCOPED', 'scenario', "GET /users with `search` queries a search index of every company's users (a shared Scout/Elasticsearch index) with the list's filters but not the company: another company's users that match are listed."),
  fault('search-total-unscoped', 'ISO-LIST-SCOPED', 'scenario', "The total of a user search comes from a count query of its own that forgets the company condition: it counts every company's matching users while the page shows the company's."),
  fault('user-edit-by-id-alone', 'ISO-ITEM-SCOPED', 'scenario', 'PUT /users/{userId} finds the user by ID alone (`User::find($id)`): a company edits another company\'s user.'),
  fault('schedule-update-by-id-alone', 'ISO-ITEM-SCOPED', 'scenario', "PUT /schedules/{schedule_id} finds the schedule by ID alone: a company updates another company's schedule."),
  fault('timesheet-user-unscoped', 'ISO-REFERENCE-SCOPED', 'scenario', "A timesheet's user_id is validated with an exists rule on the users table alone (`exists:users,id`): a company clocks a timesheet for another company's user."),
  fault('break-timesheet-unscoped', 'ISO-REFERENCE-SCOPED', 'scenario', "A break's timesheet_id is looked up by ID alone: a company adds a break to another company's timesheet."),
  fault('schedule-users-unscoped', 'ISO-REFERENCE-SCOPED', 'scenario', "A schedule's user_ids and assigned_by are checked against the users table alone: a company assigns another company's users."),
  fault('break-ids-unscoped', 'ISO-LIST-SCOPED', 'scenario', "GET /breaks with `ids` selects `WHERE id IN (…)` alone: another company's breaks are listed by their IDs."),
  fault('foreign-id-forbidden', 'ISO-FOREIGN-ID', 'scenario', "Another company's record is answered 403 where an ID that never existed is 404 (a policy check after the lookup by ID): the answer tells which IDs other companies have, where the profile reads foreign IDs as missing."),
  fault('webhook-notifies-every-company', 'ISO-WEBHOOK-SCOPED', 'scenario', "A change is notified to every company's live subscription (the subscriptions are read from one table without the company): one company's URL hears of another company's records."),
  fault('webhook-unsubscribe-every-company', 'ISO-WEBHOOK-SCOPED', 'scenario', "Unsubscribe deletes every company's subscription (`DELETE FROM webhooks` without the company): one company's unsubscribe stops another's notifications."),

  // the same verdict on every run (issue 50): each shows only at an edge a full run now always sends
  fault('employee-code-leading-zero-refused', 'USR-EMPLOYEE-CODE', 'property', 'employee_code is validated as a number from 1000 to 9999 (an integer column behind it): a valid code that starts with 0 is refused.'),
  fault('offset-wall-time-standard', 'TS-OFFSET-MATCHES-TIMEZONE', 'property', "A given zone's offset is taken at the written wall time, resolved as standard time where that wall time is missing or repeated (pytz's `localize(is_dst=False)`): a wall time a spring-forward day skips passes with the offset before the change, and a fall-back day's repeated hour read with its daylight offset is refused."),
  fault('break-duration-whole-minutes', 'BRK-DURATION', 'property', "A break's duration is counted in whole minutes (`TIMESTAMPDIFF(MINUTE, start, end) * 60`): a break of 90 s lasts 60 — right for every break of whole minutes, which are all the scenarios send."),
  fault('offset-wall-time-first', 'TS-OFFSET-MATCHES-TIMEZONE', 'property', "A given zone's offset is taken at the written wall time, resolved to its first occurrence where it is repeated (java.time's default for an overlap): a fall-back day's repeated hour read with the offset after the change is refused."),
] as const satisfies readonly Fault[];

export type FaultName = (typeof FAULTS)[number]['name'];

/**
 * Faults that refuse a valid value at the edge of its domain: the selftest requires each to be
 * reported under its own rule alone (no other rule failed), so a developer fixes the right field.
 */
export const REPORTED_ALONE: ReadonlySet<FaultName> = new Set(['time-2359-refused', 'weeks-single-refused', 'leap-day-refused', 'password-six-refused', 'page-size-100-refused', 'leap-2000-refused', 'password-special-subset']);

const FAULTS_BY_NAME: ReadonlyMap<string, Fault> = new Map(FAULTS.map((f) => [f.name, f]));

/**
 * The fault with this name.
 * @throws UsageError on a name no fault has (a `faults` option of startReferenceServer), saying where they are listed.
 */
export function faultByName(name: string): Fault {
  const found = FAULTS_BY_NAME.get(name);
  if (!found && isLoadFaultName(name)) {
    throw new UsageError(`"${name}" is a load fault: it shows only under concurrent load, which a certification does not send; \`clockcheck load --workload default --fault ${name}\` shows it`);
  }
  if (!found) {
    const near = didYouMean(name, [...FAULTS_BY_NAME.keys()]);
    throw new UsageError(`unknown fault "${name}"${near ? ` (did you mean "${near}"?)` : ''}; \`clockcheck serve --list-faults\` lists them`);
  }
  return found;
}

export function isFaultName(name: string): name is FaultName {
  return FAULTS_BY_NAME.has(name);
}

/**
 * A fault the reference server can switch on: one of the catalog (faults.ts) or a load fault
 * (load-faults.ts), by name.
 * @throws UsageError on a name neither has, with the nearest.
 */
export function serverFaultByName(name: string): FaultName | LoadFaultName {
  if (isLoadFaultName(name)) return name;
  const found = FAULTS_BY_NAME.get(name);
  if (!found) {
    const near = didYouMean(name, [...FAULTS_BY_NAME.keys(), ...LOAD_FAULTS.map((f) => f.name)]);
    throw new UsageError(`unknown fault "${name}"${near ? ` (did you mean "${near}"?)` : ''}; \`clockcheck serve --list-faults\` lists them`);
  }
  return found.name as FaultName;
}
