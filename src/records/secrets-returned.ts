import type { Exchange } from '../client/exchange.ts';
import { literalSightings } from '../client/redaction.ts';
import { locateItems, locateRecord } from './locate.ts';
import { shownValue } from './created-id.ts';
import { recordReadingFor, type RecordReading } from './record-reading.ts';
import { pathOf } from './url-path.ts';

/**
 * The one-exchange judges of the secrets an answer never carries (SEC-TOKEN-NOT-RETURNED,
 * SEC-PASSWORD-NOT-RETURNED), on an exchange as clockcheck keeps it: `grade` judges a recording's
 * exchanges with them, a run every exchange it makes (secrets-watch.ts). Nothing here shows a secret:
 * a verdict names the route and the place (a header, a JSON pointer), never the value.
 */
export interface SecretVerdict {
  readonly ruleId: 'SEC-TOKEN-NOT-RETURNED' | 'SEC-PASSWORD-NOT-RETURNED';
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** What groups equal findings: the route and the place, so one leak is one finding however often it shows. */
  readonly cause: string;
}

const TOKEN_EXPECTED = 'no answer and no notification carries a token a request was served with, in any encoding (§1: tokens are highly sensitive)';
const PASSWORD_EXPECTED = 'the password an accepted user write sent is never sent back, in any encoding, and no user record carries a non-null `password`';

/** Whether the exchange's answer came whole: no transport error, the body not cut at the cap. */
function whole(exchange: Exchange): boolean {
  return exchange.error === undefined && exchange.response !== undefined && !exchange.response.bodyTruncated;
}

/** A sighting's place in words: `header x-debug`, `body at /debug/headers/authorization`, `body`. */
function placeOf(where: string): string {
  return where.startsWith('body ') ? `body at ${where.slice(5)}` : where;
}

/** "POST /api/public/users/{id}": the route of an exchange, its numeric path segments generalized. */
export function routeOf(exchange: Exchange): string {
  const path = pathOf(exchange.request.url).replace(/\/\d+(?=\/|$)/g, '/{id}');
  return exchange.direction === 'inbound' ? `the notification POST ${path}` : `${exchange.request.method} ${path}`;
}

/**
 * SEC-TOKEN-NOT-RETURNED on one exchange: a failure for each place its answer (or, for a webhook
 * notification, its request) showed a token (`tokensShown`, found by the Redactor before redaction);
 * else a pass, when there is an answer to judge.
 */
export function tokenVerdicts(exchange: Exchange): SecretVerdict[] {
  const inbound = exchange.direction === 'inbound';
  if (!inbound && exchange.response === undefined) return [];
  const shown = exchange.tokensShown ?? [];
  const route = routeOf(exchange);
  // An answer cut short (a body past the cap, or one that stopped coming) shows no absence.
  if (shown.length === 0 && !inbound && !whole(exchange)) return [];
  if (shown.length === 0) return [{ ruleId: 'SEC-TOKEN-NOT-RETURNED', ok: true, expected: TOKEN_EXPECTED, actual: `no token in ${inbound ? route : `the answer to ${route}`}`, cause: route }];
  return shown.map((s) => ({
    ruleId: 'SEC-TOKEN-NOT-RETURNED',
    ok: false,
    expected: TOKEN_EXPECTED,
    actual: `${s.token} in the ${placeOf(s.where)} of ${inbound ? route : `the ${exchange.response?.status ?? ''} answer to ${route}`} (shown redacted)`,
    cause: `${route}\u0000${s.token}\u0000${s.where}`,
  }));
}

const USER_PATH = /\/users(?:\/[^/]+)?\/?$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The user records a 2xx answer on a users route carries: the list's items (GET), the record (POST, PUT). */
function userRecords(exchange: Exchange, reading: RecordReading): Record<string, unknown>[] {
  const json = exchange.response?.json;
  if (exchange.request.method === 'GET') return (locateItems(json, reading) ?? []).filter(isObject);
  const record = locateRecord(json, reading);
  return isObject(record) ? [record] : [];
}

/** The password a user write's request body sent, when it sent one. */
function sentPassword(exchange: Exchange): string | null {
  if (!['POST', 'PUT'].includes(exchange.request.method) || exchange.request.body === undefined) return null;
  try {
    const body: unknown = JSON.parse(exchange.request.body);
    return isObject(body) && typeof body.password === 'string' && body.password.length > 0 ? body.password : null;
  } catch {
    return null;
  }
}

/**
 * SEC-PASSWORD-NOT-RETURNED on one exchange: a 2xx to a user create or edit that sent a password
 * fails when its answer shows that password (as written, in any case, or in the common encodings:
 * percent, HTML, JSON escapes, hex, base64 at any offset; literalSightings), at a header or the JSON
 * pointer that holds it; every user record a 2xx answer on a users route carries
 * fails when it has a non-null `password` (a hash is a password too). A refused write's answer is not
 * judged: a password the target did not accept is no secret of the target's.
 */
export function passwordVerdicts(exchange: Exchange, profile: Parameters<typeof recordReadingFor>[0]): SecretVerdict[] {
  const status = exchange.response?.status ?? 0;
  // Every exchange of a run comes here: the route is tested before anything is read.
  if (exchange.direction === 'inbound' || status < 200 || status >= 300 || !USER_PATH.test(pathOf(exchange.request.url))) return [];
  const route = routeOf(exchange);
  const out: SecretVerdict[] = [];
  const password = sentPassword(exchange);
  const answer = exchange.response;
  if (password !== null && answer !== undefined) {
    const shown = literalSightings(answer, { value: password, name: 'the password the write sent' });
    for (const s of shown) out.push({ ruleId: 'SEC-PASSWORD-NOT-RETURNED', ok: false, expected: PASSWORD_EXPECTED, actual: `${s.token} in the ${placeOf(s.where)} of the ${status} answer to ${route} (shown redacted)`, cause: `${route}\u0000sent\u0000${s.where}` });
    // An answer cut short shows no absence.
    if (shown.length === 0 && whole(exchange)) out.push({ ruleId: 'SEC-PASSWORD-NOT-RETURNED', ok: true, expected: PASSWORD_EXPECTED, actual: `the answer to ${route} does not carry the password it sent`, cause: route });
  }
  const records = userRecords(exchange, recordReadingFor(profile, exchange.request.url));
  for (const record of records) {
    const value = record.password;
    // The password the write sent, in the record: one finding (the echo's, above), not two.
    if (value === undefined || value === null || value === password) continue;
    const id = record.id === undefined ? 'a user record' : `the user record ${shownValue(record.id)}`;
    const kind = typeof value === 'string' ? `a string of ${[...value].length} characters` : typeof value;
    out.push({ ruleId: 'SEC-PASSWORD-NOT-RETURNED', ok: false, expected: PASSWORD_EXPECTED, actual: `${id} in the ${status} answer to ${route} carries \`password\` (${kind}, not shown)`, cause: `${route}\u0000record` });
  }
  if (out.length === 0 && records.length > 0) {
    out.push({ ruleId: 'SEC-PASSWORD-NOT-RETURNED', ok: true, expected: PASSWORD_EXPECTED, actual: `the user records of the answer to ${route} carry no password`, cause: route });
  }
  return out;
}
