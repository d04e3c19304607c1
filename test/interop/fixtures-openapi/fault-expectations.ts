import type { FaultName } from '../../../src/reference/faults.ts';

/**
 * What the peer tools can see of each fault of the reference server's catalog, when Newman runs the
 * Portman collection of the standard profile's export (one valid request per operation, from the
 * document's examples) straight at the server and through Prism's validating proxy.
 *
 * `flagged` faults break a rule a schema or a status code says, on an answer to a valid request:
 * a record shape, a date format, a status code. The others break a rule only an invalid request, a
 * second request, a burst, a notification or a judgement over several answers can show; the reason
 * says which. A `Record` over FaultName, so a new fault must be placed here.
 */
export type FaultExpectation =
  | { readonly flagged: true; readonly by: 'a record shape' | 'a date format' | 'a status code'; readonly how: string }
  | { readonly flagged: false; readonly why: string };

const seen = (by: 'a record shape' | 'a date format' | 'a status code', how: string): FaultExpectation => ({ flagged: true, by, how });
const unseen = (why: string): FaultExpectation => ({ flagged: false, why });

const BURST = unseen('the rate limit: only a burst beyond 60 calls shows it (the collection sends 10)');
const INVALID = unseen('a lenient check: only an invalid request shows it (the collection sends valid ones)');
const VALUE = unseen('a value the request decides (a default, a filter, an order): a schema cannot say which value an answer must hold');
const STATE = unseen('what a later request shows (a stored record, a page after the first)');
const EDGE = unseen('a valid value at the edge of its domain refused: the examples send mid-range values (23:59, one weekday, February 29th of 2028 or 2000, a 6-character password, a password whose only special character is ~, page_size 100 are not among them)');
const STORED = unseen('what a record reads back as: only a later list read shows it, and only with the value it changes (the examples are plain ASCII, whole numbers, the company offset)');
const NOTIFICATION = unseen('a webhook notification: not an answer to a request');

export const FAULT_EXPECTATIONS: Readonly<Record<FaultName, FaultExpectation>> = {
  'rate-limit-off': BURST,
  'rate-limit-one-extra': BURST,
  'rate-limit-race': BURST,
  'rate-limit-too-strict': BURST,
  'rate-limit-wrong-status': BURST,
  'rate-limit-silent-body': BURST,
  'rate-limit-never-resets': BURST,
  'rate-limit-fixed-window': BURST,
  'rate-limit-clock-window': BURST,
  'rate-limit-skips-refused': unseen('refused calls beyond the limit: only a burst of limit + 1 calls without a valid token shows it (the collection sends 10, each with the token)'),
  'auth-missing-accepted': unseen('needs a request without a token (not valid)'),
  'auth-any-token': unseen('needs a request with a wrong token (not valid)'),
  'debug-error-echoes-headers': unseen('an error answer: the collection sends valid requests only'),
  'user-password-echoed': unseen('a field the user record leaves open: the exported record has no `password` (write-only) and allows fields it does not name (the spec does not show the record)'),
  'user-password-hash-shown': unseen('a field the user record leaves open: the exported record has no `password` (write-only) and allows fields it does not name (the spec does not show the record)'),
  'auth-bearer-only': seen('a status code', 'the security scheme sends the raw token (§5.2): every answer is 401, not a listed success'),
  'plain-http-served': unseen('plain HTTP: the document names an HTTPS server only'),
  'malformed-json-500': INVALID,
  'errors-not-json': unseen('an error body: a clean server answers no valid request with an error'),
  'head-unsupported': unseen('HEAD: not an operation of the document'),
  'head-status-mismatch': unseen('HEAD: not an operation of the document'),
  'versioned-path-missing': unseen('/api/v2: the document names /api/public'),
  'date-format-lenient': INVALID,
  'date-calendar-unchecked': INVALID,
  'time-24-00-accepted': INVALID,
  'time-12h-accepted': INVALID,
  'time-2359-refused': EDGE,
  'weeks-single-refused': EDGE,
  'leap-day-refused': EDGE,
  'weeks-format-unchecked': INVALID,
  'timezone-name-unchecked': INVALID,
  'timezone-default-utc': VALUE,
  'all-day-times-not-required': INVALID,
  'all-day-times-required-anyway': seen('a status code', 'the schedule examples are all-day without times: refused 422, not the listed 201/200'),
  'repeat-end-date-not-required': INVALID,
  'weekly-weeks-not-required': INVALID,
  'update-event-pid-not-required': INVALID,
  'update-conditionals-skipped': INVALID,
  'inactive-user-assignable': INVALID,
  'color-not-required': INVALID,
  'password-special-not-required': INVALID,
  'password-min-5': INVALID,
  'password-six-refused': EDGE,
  'password-unchecked-on-edit': INVALID,
  'employee-code-length-unchecked': INVALID,
  'employee-code-non-digits': INVALID,
  'role-id-default-admin': VALUE,
  'role-id-unchecked': INVALID,
  'track-location-default-true': VALUE,
  'pay-rate-default-null': seen('a record shape', 'the created user (where id_pointer locates it) has pay_rate a number: null is no value of a field with a default'),
  'billing-rate-type-unchecked': INVALID,
  'email-not-required': INVALID,
  'user-put-replaces': unseen('the replaced fields become empty strings and defaults: values of the right type, wrong only against the stored record'),
  'email-format-unchecked': INVALID,
  'edit-requires-all-four': seen('a status code', "the edit example is partial (the profile's user_edit_required: none): refused 422, not the listed 200"),
  'timesheet-naive-datetime': INVALID,
  'timesheet-end-null-rejected': unseen('the timesheet example is closed: only a request with end null shows it'),
  'timesheet-unknown-user': INVALID,
  'offset-unchecked': INVALID,
  'offset-dst-blind': seen('a status code', 'the night-shift example starts in daylight saving time: refused 422, not the listed 201'),
  'offset-day-granular': seen('a status code', 'the night-shift example ends on the day daylight saving time ends: refused 422, not the listed 201'),
  'end-offset-uses-clock-in': seen('a status code', 'the night-shift example clocks out in another timezone: refused 422, not the listed 201'),
  'offset-default-utc': seen('a status code', 'the night-shift example names no clock_in_timezone (the company timezone applies): refused 422, not the listed 201'),
  'break-list-duration-name': seen('a record shape', 'GET /breaks: each item requires duration_in_seconds (§2.4)'),
  'break-create-no-timesheet-id': seen('a record shape', 'POST /breaks: the created break requires timesheet_id (§2.4)'),
  'break-duration-minutes': VALUE,
  'break-timestamps-with-offset': seen('a date format', 'created_at and updated_at match YYYY-MM-DDTHH:MM:SS without offset (§2.4)'),
  'break-outside-timesheet': INVALID,
  'break-naive-datetime': INVALID,
  'break-unknown-rule': INVALID,
  'break-ids-ignored': unseen('the ids filter: a value the request decides (and the collection sends GET /breaks without a body: Prism forwards none)'),
  'break-ids-empty-none': unseen('the ids filter with ids []: the collection sends no such body'),
  'break-create-no-message': seen('a record shape', 'POST /breaks: the answer requires message (§4.4)'),
  'page-size-uncapped': unseen('needs page_size above 100 (the collection sends the defaults)'),
  'page-size-100-refused': EDGE,
  'page-size-default-15': VALUE,
  'last-page-extra-when-exact': VALUE,
  'pages-overlap': STATE,
  'pagination-total-of-page': STATE,
  'pagination-field-missing': seen('a record shape', 'every list: meta_data.pagination requires last_page_url (§2.5)'),
  'page-zero-based': STATE,
  'next-page-url-stuck': STATE,
  'sort-ignored': VALUE,
  'sort-descending-ignored': VALUE,
  'sort-multi-ignored': VALUE,
  'search-ignored': VALUE,
  'filter-active-ignored': VALUE,
  'filter-role-ignored': VALUE,
  'date-range-ignored': VALUE,
  'unsubscribe-keeps-subscription': STATE,
  'notifications-after-unsubscribe': NOTIFICATION,
  'webhook-wrong-signature': NOTIFICATION,
  'webhook-unsigned': NOTIFICATION,
  'webhook-payload-no-id': NOTIFICATION,
  'user-edit-fillable': STATE,
  'text-outside-bmp-lost': STORED,
  'text-nfc-normalized': STORED,
  'text-html-escaped': STORED,
  'mileage-rounded': STORED,
  'break-times-company-offset': STORED,
  'phone-digits-only': STORED,
  'notes-cut-255': STORED,
  'clock-out-timezone-from-clock-in': STORED,
  'track-mileage-not-stored': STORED,
  'user-list-stale-after-edit': STATE,
  'password-length-utf16': INVALID,
  'password-length-bytes': INVALID,
  'password-special-subset': EDGE,
  'leap-century-accepted': INVALID,
  'leap-2000-refused': EDGE,
  'page-not-number-500': INVALID,
  'sort-unknown-500': INVALID,
  'date-range-end-exclusive': VALUE,
  'head-content-length-zero': unseen('HEAD: not an operation of the document'),
  'json-charset-refused': unseen('a media type with a parameter: the collection sends the bare application/json'),
  'json-media-type-case-sensitive': unseen('a media type in another case: the collection sends the lowercase application/json'),
  'sort-id-as-text': VALUE,
  'break-ids-first-ten': unseen('the ids filter with more than ten ids: the collection sends no such body'),
  'filter-role-manager-ignored': VALUE,
  'filter-active-false-ignored': VALUE,
};
