import { RULES, type RuleId } from '../contract/rules.ts';

/**
 * The rules `grade` judges from recorded traffic alone, each with what in the recording shows it.
 * A rule listed here is judged when the recording holds such an exchange; otherwise it is skipped,
 * saying what it would need. Every other rule needs clockcheck to send probes (NOT_PASSIVE says why).
 */
export const PASSIVE_RULES: Readonly<Partial<Record<RuleId, string>>> = {
  'HTTPS-ONLY': 'a plain-HTTP request to the API answered with data, or redirected to HTTPS',
  'JSON-RESPONSE': 'a 2xx or 4xx answer with a body',
  'JSON-MALFORMED-REJECTED': 'a JSON request body that does not parse',
  'HEAD-SUPPORTED': 'a HEAD request to the API',
  'HEAD-PARITY': 'a HEAD and a GET of the same URL within a minute',
  'ID-INTEGER': 'a user, schedule or timesheet create answered 2xx with the ID of its record',
  'SEC-TOKEN-NOT-RETURNED': 'an answer to a request sent with a token (a token an answer carries fails it, whatever the request)',
  'SEC-PASSWORD-NOT-RETURNED': 'a user create or edit with a password answered 2xx, or a 2xx answer carrying user records',
  'SCH-ASSIGNED-BY-REQUIRED': 'a schedule create without assigned_by',
  'SCH-TITLE-REQUIRED': 'a schedule create without title',
  'SCH-REPEAT-REQUIRED': 'a schedule create without repeat',
  'SCH-ALL-DAY-REQUIRED': 'a schedule create without all_day',
  'SCH-COLOR-REQUIRED': 'a schedule create without color',
  'SCH-USER-IDS-REQUIRED': 'a schedule create without user_ids',
  'SCH-START-DATE-REQUIRED': 'a schedule create without start_date',
  'SCH-END-DATE-REQUIRED': 'a schedule create without end_date',
  'SCH-DATE-FORMAT': 'a schedule write with a malformed date',
  'SCH-TIME-FORMAT': 'a schedule write with a malformed time',
  'SCH-TIMES-UNLESS-ALL-DAY': 'a schedule create without times and not all day',
  'SCH-REPEAT-FIELDS': 'a repeating schedule create without repeat_type or repeat_end_date',
  'SCH-WEEKLY-WEEKS': 'a weekly schedule create without weeks',
  'SCH-WEEKS-FORMAT': 'a schedule write with malformed weeks',
  'SCH-TIMEZONE-NAME': 'a schedule write with a timezone that is not an IANA name',
  'SCH-FIELD-TYPES': 'a schedule write with a value of the wrong type',
  'SCH-UPDATE-EVENT-PID': 'a schedule update without event_pid',
  'USR-EMPLOYEE-CODE': 'a user write with an employee_code that is not 4 digits',
  'USR-ROLE-ID-VALUES': 'a user write with a role_id other than 1, 2, 3',
  'USR-ROLE-ID-DEFAULT': 'a user create without role_id whose answer shows the record',
  'USR-TRACK-LOCATION-DEFAULT': 'a user create without track_location whose answer shows the record',
  'USR-TRACK-MILEAGE-DEFAULT': 'a user create without track_mileage whose answer shows the record',
  'USR-PAY-RATE-DEFAULT': 'a user create without pay_rate whose answer shows the record',
  'USR-BILLING-RATE-TYPE-VALUES': 'a user write with a billing_rate_type other than 0, 1',
  'USR-BILLING-RATE-TYPE-DEFAULT': 'a user create without billing_rate_type whose answer shows the record',
  'USR-CUSTOM-FIELDS-SHAPE': 'a user write with custom_fields that are not strings by name',
  'USR-FIELD-TYPES': 'a user write with a value of the wrong type',
  'USR-EMAIL-FORMAT': 'a user write with a malformed e-mail, under a profile that declares user_email_format: validated',
  'USR-PASSWORD-LENGTH': 'a user write with a password under 6 characters',
  'USR-PASSWORD-CLASSES': 'a user write with a password missing a character class',
  'USR-CREATE-REQUIRED': 'a user create without first_name, last_name, email or password',
  'USR-LIST-FILTER-ROLE': 'a GET /users?role=N answered with users',
  'TS-DATETIME-FORMAT': 'a timesheet create with a malformed start or end',
  'TS-TIMEZONE-NAME': 'a timesheet create with a timezone that is not an IANA name',
  'TS-FIELD-TYPES': 'a timesheet create with a value of the wrong type',
  'TS-CREATE-REQUIRED': 'a timesheet create without user_id or start',
  'TS-OFFSET-MATCHES-TIMEZONE': 'a timesheet create whose offset is not its timezone\'s',
  'TS-OFFSET-DEFAULT-TIMEZONE': "a timesheet create without a timezone whose offset is not the company's (with --profile)",
  'BRK-CREATE-REQUIRED': 'a break create without timesheet_id, break_rule_id, start or end',
  'BRK-DATETIME-FORMAT': 'a break create or a listed break with start and end',
  'BRK-LIST-SHAPE': 'a GET /breaks answered 2xx with breaks',
  'BRK-CREATE-SHAPE': 'a POST /breaks answered 2xx',
  'BRK-DURATION': 'a listed or created break',
  'BRK-TIMESTAMP-FORMAT': 'a listed or created break',
  'BRK-CREATE-RESPONSE': 'a POST /breaks answered 2xx',
  'BRK-LIST-RESPONSE': 'a GET /breaks answered 2xx',
  'BRK-IDS-FILTER': 'a GET /breaks with a body naming ids',
  'PAG-BLOCK-FIELDS': 'a list answered 2xx',
  'PAG-BLOCK-CONSISTENT': 'a list answered 2xx',
  'PAG-LINKS': 'a list answered 2xx',
  'PAG-PAGE-DEFAULT': 'a list answered 2xx',
  'PAG-PAGE-SIZE-DEFAULT': 'a list asked without page_size',
  'PAG-PAGE-SIZE-MAX': 'a list asked with a page_size',
  'SORT-ASCENDING': 'a list asked with sort=name, two items or more',
  'SORT-DESCENDING': 'a list asked with sort=-name, two items or more',
  'SORT-MULTI': 'a list asked with sort=a,b, two items or more',
  'DATE-RANGE-INVALID': 'a list asked with a malformed date_range',
  'AUTH-REQUIRED': 'a request without Authorization (and without a session cookie)',
  'AUTH-STATUS': 'a request without Authorization that was refused',
  'AUTH-HEADER-RAW': 'a request with the raw token',
  'RATE-LIMIT-CAP': 'more than the limit of calls with one token within one window',
  'RATE-LIMIT-BODY': 'a 429, under a profile that names rate_limit.body_text',
  'ERR-VALIDATION-STATUS': 'a write whose body breaks a field rule, refused, under a profile that names status_codes.validation',
  'ERR-NO-SERVER-ERROR': 'a write whose body breaks a rule, or an odd page_size or date_range',
  'ERR-SUCCESS-STATUS': 'an operation answered 2xx, under a profile that names status_codes',
  'VER-PUBLIC-PATH': 'a GET of a list under /api/public',
};

/** Why a rule cannot be judged from traffic alone: what it takes that a recording does not hold. */
export function notPassiveReason(ruleId: RuleId): string {
  if (ruleId.startsWith('WH-')) return "needs the webhook notifications, which reach the subscriber's URL, not the recording: clockcheck run with a sink";
  if (ruleId === 'RATE-LIMIT-REFUSED') return 'needs limit + 1 calls refused for their token (none, or one wrong token repeated) within one window, which no recording of a client that holds a token makes: clockcheck run';
  if (ruleId.startsWith('RATE-LIMIT-')) return 'needs calls timed against the window (a burst at the boundary, a wait for the reset): clockcheck run';
  if (/EXISTS|ACTIVE|UNKNOWN|WITHIN-TIMESHEET|PUT-PARTIAL|IDS-ALL|^STORE-/.test(ruleId)) return 'depends on the records stored on the server, which a recording does not show: clockcheck run';
  if (/FILTER|SEARCH|DATE-RANGE$|PAG-WALK|TIMEZONE-DEFAULT|SORT-FIELD-NAMES|END-AFTER-START|EDIT-REQUIRED|UPDATE-CONDITIONALS/.test(ruleId)) return 'needs requests made to show it and compared (a walk, a filter against the whole list, a record read back): clockcheck run';
  if (ruleId.startsWith('AUTH-') || ruleId === 'VER-VERSIONED-PATH' || ruleId === 'HEAD-SUPPORTED') return 'needs a probe the recording does not make (a token never issued, another prefix): clockcheck run';
  return 'needs clockcheck to send the request that shows it: clockcheck run';
}

/** How many rules `grade` can judge from traffic, of the catalog's. */
export function passiveCoverage(): { readonly passive: number; readonly total: number } {
  return { passive: Object.keys(PASSIVE_RULES).length, total: RULES.length };
}
