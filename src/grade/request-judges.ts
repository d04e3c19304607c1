import { ruleById, type RuleId } from '../contract/rules.ts';
import { isJsonObject } from '../contract/payloads/validate.ts';
import type { Violation } from '../contract/violation.ts';
import type { Profile } from '../profile/profile.ts';
import { isRejection, isServerError, isSuccess, judged, requestLine, statusOf, type Judgement } from './judgement.ts';
import type { Observed } from './traffic.ts';

/** How `grade` reads the profile: the profile given (`given`), or the defaults when none was (then rules that need the server's own readings are not judged). */
export interface GradeReading {
  readonly profile: Profile;
  readonly given: boolean;
}

/**
 * Whether a rule a body breaks can be judged from the body alone. Rules the profile decides
 * (basis `profile`) only as the profile declares them; the company timezone's offsets only with a
 * profile that names it (the default is a guess about the server).
 */
function judgeable(ruleId: RuleId, reading: GradeReading): boolean {
  if (ruleId === 'USR-EMAIL-FORMAT') return reading.profile.user_email_format === 'validated';
  if (ruleId === 'TS-OFFSET-DEFAULT-TIMEZONE') return reading.given;
  return ruleById(ruleId).basis === 'spec';
}

/**
 * The rules a recorded request body breaks, as the spec model says (src/contract/payloads). On an
 * update (PUT is partial, §1) only what the body itself says counts: the values it sends and
 * `event_pid`, never a requirement or a conditional rule the stored record may meet.
 */
export function bodyViolations(o: Observed, reading: GradeReading): Violation[] | null {
  const model = o.operation?.request;
  if (!model || !o.requestBody.known || o.requestJsonProblem !== undefined) return null;
  const body = o.requestBody.text.trim() === '' ? {} : o.requestJson;
  if (!isJsonObject(body)) return null;
  const all = [...model.violations(body, { companyTimezone: reading.profile.company_timezone }), ...emailViolations(o, body)];
  const own = model.operation === 'update' ? all.filter((v) => v.ruleId === 'SCH-UPDATE-EVENT-PID' || (v.field !== '' && body[v.field.split('.')[0]!] !== undefined)) : all;
  return own.filter((v) => judgeable(v.ruleId, reading));
}

/** An e-mail no reading takes for one (no `@` between two parts, or a blank in it): USR-EMAIL-FORMAT, judged as the profile declares (`validated`). */
function emailViolations(o: Observed, body: Readonly<Record<string, unknown>>): Violation[] {
  const user = o.operation?.operationId === 'createUser' || o.operation?.operationId === 'editUser';
  return user && typeof body.email === 'string' && !/^[^\s@]+@[^\s@]+$/.test(body.email) ? [{ ruleId: 'USR-EMAIL-FORMAT', field: 'email', message: `email ${JSON.stringify(body.email)} is not an address` }] : [];
}

/**
 * ERR-VALIDATION-STATUS: a body that breaks a field rule is refused with the profile's code. Judged
 * only when the profile names one: without it any 4xx other than 429 holds, and a refusal is one.
 */
function validationStatus(o: Observed, status: number, profile: Profile): Judgement[] {
  const wanted = profile.status_codes.validation;
  return wanted === undefined ? [] : [judged(o, 'ERR-VALIDATION-STATUS', status === wanted, `status ${wanted} (profile)`, `status ${status}`)];
}

/**
 * What a recorded write shows of the field rules (§2, §4): a body that breaks rule R and was
 * accepted (2xx) fails R; one refused with a 4xx passes R when R is the only rule it breaks (a
 * minimal pair: with several, the refusal does not say which one it was for), and shows the
 * validation status; a 5xx to it fails ERR-NO-SERVER-ERROR. A valid body shows nothing here: its
 * refusal may be about stored records (an inactive user, a timesheet the break lies outside).
 */
export function requestRuleJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const status = statusOf(o);
  if (status === null || status === 401 || status === 403 || status === 429) return [];
  const malformed = malformedJson(o, status);
  if (malformed.length > 0) return malformed;
  const violations = bodyViolations(o, reading);
  if (violations === null || violations.length === 0) return [];
  const rules = [...new Set(violations.map((v) => v.ruleId))];
  const line = requestLine(o);
  const said = (rule: RuleId) => violations.filter((v) => v.ruleId === rule).map((v) => v.message).join('; ');
  if (isSuccess(status)) return rules.map((rule) => judged(o, rule, false, `${line} refused: its body breaks ${rule} (${said(rule)})`, `status ${status}: accepted`));
  if (isServerError(status)) return [judged(o, 'ERR-NO-SERVER-ERROR', false, `${line} with a body that breaks ${rules.join(', ')} refused with a 4xx`, `status ${status}`)];
  if (!isRejection(status)) return [];
  return [
    judged(o, 'ERR-NO-SERVER-ERROR', true, 'a 4xx to a body that breaks a rule', `status ${status}`),
    ...validationStatus(o, status, reading.profile),
    ...(rules.length === 1 ? [judged(o, rules[0]!, true, `a body that breaks ${rules[0]} (${said(rules[0]!)}) refused`, `status ${status}`)] : []),
  ];
}

/** JSON-MALFORMED-REJECTED (§1): a JSON request body that does not parse is refused with a 4xx, never accepted or a 5xx. */
function malformedJson(o: Observed, status: number): Judgement[] {
  if (o.requestJsonProblem === undefined) return [];
  if (!/json/i.test(o.exchange.request.headers['content-type'] ?? '')) return [];
  const expected = `${requestLine(o)} with a body that is not JSON (${o.requestJsonProblem}) refused with a 4xx`;
  // A 5xx here is JSON-MALFORMED-REJECTED's own finding (as the run attributes it), not a second one under ERR-NO-SERVER-ERROR.
  if (isServerError(status)) return [judged(o, 'JSON-MALFORMED-REJECTED', false, expected, `status ${status}`)];
  if (isSuccess(status)) return [judged(o, 'JSON-MALFORMED-REJECTED', false, expected, `status ${status}: accepted`)];
  return isRejection(status) ? [judged(o, 'JSON-MALFORMED-REJECTED', true, expected, `status ${status}`), judged(o, 'ERR-NO-SERVER-ERROR', true, expected, `status ${status}`)] : [];
}
