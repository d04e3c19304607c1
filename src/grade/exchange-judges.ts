import { isRejection, isServerError, isSuccess, judged, requestLine, statusOf, type Judgement } from './judgement.ts';
import { breakCreateJudgements, listJudgements } from './list-judges.ts';
import { createdIdJudgements, userDefaultJudgements } from './record-judges.ts';
import { requestRuleJudgements, type GradeReading } from './request-judges.ts';
import type { Observed } from './traffic.ts';
import { passwordVerdicts, tokenVerdicts } from '../records/secrets-returned.ts';

const DATE_RANGE = /^(\d{4})-(\d{2})-(\d{2}),(\d{4})-(\d{2})-(\d{2})$/;

/** JSON-RESPONSE (§1): a body a 2xx or a refusal carries is JSON, with a JSON content type. */
function jsonBodyJudgements(o: Observed): Judgement[] {
  const status = statusOf(o);
  if (o.exchange.request.method === 'HEAD' || !o.responseBody.known || o.responseBody.text.trim() === '') return [];
  if (!(isSuccess(status) || isRejection(status))) return [];
  const type = o.exchange.response?.headers['content-type'] ?? '';
  const parses = o.responseJson !== undefined;
  const ok = parses && /json/i.test(type);
  const actual = `content-type ${type || 'none'}${parses ? '' : ', a body that is not JSON'}`;
  return [judged(o, 'JSON-RESPONSE', ok, 'a JSON body with a JSON content type', actual)];
}

/** HEAD-SUPPORTED (§1): HEAD on a GET route is answered, without a body. */
function headJudgements(o: Observed): Judgement[] {
  const status = statusOf(o);
  if (o.exchange.request.method !== 'HEAD' || status === null || status === 429 || status === 401 || status === 403) return [];
  if (status === 405 || status === 501) return [judged(o, 'HEAD-SUPPORTED', false, `HEAD ${o.path} answered as GET is`, `status ${status}`)];
  if (!isSuccess(status) || !o.responseBody.known) return [];
  return [judged(o, 'HEAD-SUPPORTED', o.responseBody.bytes === 0, 'an answer without a body', o.responseBody.bytes === 0 ? `status ${status}, no body` : `${o.responseBody.bytes} bytes of body`)];
}

/** HTTPS-ONLY (§1, §5.6): a plain-HTTP request gets no API data. VER-PUBLIC-PATH (§9): the lists are served under /api/public. */
function pathJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const status = statusOf(o);
  const out: Judgement[] = [];
  if (new URL(o.exchange.request.url).protocol === 'http:' && status !== null) {
    // Data over plain HTTP fails; a redirect to HTTPS passes. A refusal shows nothing by itself: the
    // API's own 401 over plain HTTP is the API served there (the run compares it with the HTTPS answer).
    const data = isSuccess(status) && o.responseBody.known && o.responseBody.text.trim() !== '';
    const location = o.exchange.response?.headers.location ?? '';
    const upgraded = status >= 300 && status < 400 && location.startsWith('https://');
    if (data || upgraded) out.push(judged(o, 'HTTPS-ONLY', upgraded, `plain-HTTP ${requestLine(o)} redirected to HTTPS or refused, no API data`, `status ${status}${data ? ' with a body' : ` to ${location}`}`));
  }
  const list = o.exchange.request.method === 'GET' && o.operation?.method === 'get' && reading.profile.api_prefix === '/api/public';
  if (list && (isSuccess(status) || status === 404)) out.push(judged(o, 'VER-PUBLIC-PATH', status !== 404, `${requestLine(o)} served under /api/public`, `status ${status}`));
  return out;
}

/** AUTH-REQUIRED, AUTH-STATUS (§5.1, §7): a request without a token to a documented operation is refused, with a 4xx other than 429 (the profile's code when it names one). */
function authJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const status = statusOf(o);
  if (o.credential.form !== 'none' || o.operation === undefined || status === null || status === 429) return [];
  const out = [judged(o, 'AUTH-REQUIRED', !isSuccess(status), `${requestLine(o)} without Authorization refused`, `status ${status}`)];
  if (isSuccess(status)) return out;
  const wanted = reading.profile.status_codes.unauthenticated;
  const ok = wanted === undefined ? status >= 400 && status < 500 : status === wanted;
  return [...out, judged(o, 'AUTH-STATUS', ok, wanted === undefined ? 'a 4xx other than 429' : `status ${wanted} (profile)`, `status ${status}`)];
}

const SUCCESS_KIND = { post: 'create', put: 'update', get: 'list', delete: 'delete' } as const;

/** ERR-SUCCESS-STATUS (§7): an operation's success is a 2xx, the profile's code for its kind when it names one. */
function successStatusJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const status = statusOf(o);
  if (o.operation === undefined || !isSuccess(status) || o.credential.form === 'none') return [];
  const wanted = reading.profile.status_codes[SUCCESS_KIND[o.operation.method]];
  return wanted === undefined ? [] : [judged(o, 'ERR-SUCCESS-STATUS', status === wanted, `status ${wanted} on ${o.operation.operationId} (profile)`, `status ${status}`)];
}

function realDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

/** DATE-RANGE-INVALID (§4.6, the profile's reading): a malformed date_range is refused or ignored, never a 5xx. */
function dateRangeJudgements(o: Observed): Judgement[] {
  const range = o.query.get('date_range');
  const status = statusOf(o);
  if (range === null || status === null || status === 429 || status === 401 || status === 403) return [];
  const parts = DATE_RANGE.exec(range);
  if (parts && realDate(parts[1]!, parts[2]!, parts[3]!) && realDate(parts[4]!, parts[5]!, parts[6]!)) return [];
  return [judged(o, 'DATE-RANGE-INVALID', !isServerError(status), `date_range=${range} refused (4xx) or ignored, never a 5xx`, `status ${status}`)];
}

/** RATE-LIMIT-BODY (§7, the profile's reading): a 429 says what the profile's rate_limit.body_text says. */
function limitBodyJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const text = reading.profile.rate_limit.body_text;
  if (statusOf(o) !== 429 || text === undefined || !o.responseBody.known) return [];
  return [judged(o, 'RATE-LIMIT-BODY', o.responseBody.text.includes(text), `a 429 body with "${text}" (profile)`, o.responseBody.text.slice(0, 80))];
}

/**
 * SEC-TOKEN-NOT-RETURNED, SEC-PASSWORD-NOT-RETURNED (§1, §2.2): the one-exchange judges a run applies
 * to every answer (records/secrets-returned.ts). A token in an answer fails whatever the request; an
 * answer passes the token rule only when its request carried a token to leak.
 */
function secretJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const tokens = tokenVerdicts(o.exchange).filter((v) => !v.ok || o.credential.form === 'raw' || o.credential.form === 'scheme');
  const passwords = passwordVerdicts(o.exchange, reading.profile);
  return [...tokens, ...passwords].map((v) => judged(o, v.ruleId, v.ok, v.expected, v.actual));
}

/**
 * What an answer shows by itself of the rules about answers (record shapes and formats, derived
 * values such as a break's duration, a pagination block against its own items, sorted and filtered
 * pages, content types, HEAD, a success's status, a 429's body): what a run judges every answer of
 * a documented operation by (records/answers-watch.ts), whichever check asked. Left out: what a
 * request shows (a rule it breaks, a missing token, plain HTTP: the checks that send them judge them
 * with the profile's readings) and what a run watches apart (created IDs, secrets).
 */
export function answerJudgements(o: Observed, reading: GradeReading): Judgement[] {
  if (o.noResponse !== undefined) return [];
  return [
    ...jsonBodyJudgements(o),
    ...headJudgements(o),
    ...successStatusJudgements(o, reading),
    ...limitBodyJudgements(o, reading),
    ...listJudgements(o, reading),
    ...breakCreateJudgements(o),
    ...userDefaultJudgements(o, reading),
  ];
}

/** Everything one recorded exchange shows by itself, rule by rule: what its answer shows, and what its request does. */
export function exchangeJudgements(o: Observed, reading: GradeReading): Judgement[] {
  if (o.noResponse !== undefined) return [];
  return [
    ...answerJudgements(o, reading),
    ...pathJudgements(o, reading),
    ...authJudgements(o, reading),
    ...dateRangeJudgements(o),
    ...requestRuleJudgements(o, reading),
    ...createdIdJudgements(o, reading),
    ...secretJudgements(o, reading),
  ];
}
