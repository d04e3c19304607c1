import type { CheckResult } from '../report/model.ts';
import type { TargetClient, TokenScheme } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { formatDuration } from '../duration.ts';
import { RunError } from './run-error.ts';

/** The check the preflight's exchanges decide: is the token accepted as §5.2 sends it? */
export const TOKEN_FORM_CHECK_ID = 'auth/token-form';
const TITLE = 'the token is accepted as §5.2 sends it, Authorization: <token> (the run preflight)';

/** What the preflight found out before any check ran. */
export interface Preflight {
  /** How every check but the AUTH-HEADER-RAW ones writes the token. */
  readonly scheme: TokenScheme;
  /** AUTH-HEADER-RAW as far as the preflight's own exchanges show it. */
  readonly check: CheckResult;
  /** A line for the run summary when the run does not send the token as §5.2 says; else null. */
  readonly note: string | null;
}

/** Whether a status is how this target refuses a token: 401, 403, or the profile's `status_codes.unauthenticated`. */
export function refusesToken(status: number, profile: Profile): boolean {
  return status === 401 || status === 403 || status === profile.status_codes.unauthenticated;
}

/** A short, one-line excerpt of a response body for a message (already redacted). */
function excerpt(exchange: Exchange): string {
  const body = exchange.response?.body.replace(/\s+/g, ' ').trim() ?? '';
  return body === '' ? '' : ` ${body.length > 100 ? `${body.slice(0, 100)}…` : body}`;
}

/** Exit 2 when the target cannot be reached at all, or stalls its first answer: one line that says what to fix. */
function unreachable(exchange: Exchange, origin: string, profile: Profile): string | null {
  const error = exchange.error;
  if (!error) return null;
  if (exchange.response) {
    // A head, then a body that stalls: nothing of the run could be judged on such answers.
    if (error.code !== 'BODY_TIMEOUT' && error.code !== 'EXCHANGE_TIMEOUT') return null;
    return `${origin} answered GET /users with ${exchange.response.status}, then its body did not arrive within ${formatDuration(error.code === 'BODY_TIMEOUT' ? profile.timeouts.body : profile.timeouts.exchange)} (${error.code}): the target stalls; is it the API's server, and is it healthy?`;
  }
  switch (error.code) {
    case 'TLS_ERROR':
      return `TLS error talking to ${origin}: ${error.message}. Trust its CA with --ca FILE (profile: tls.ca), or pass --insecure.`;
    case 'CONNECTION_REFUSED':
      return `nothing listens at ${origin} (connection refused): is the target up, and is the port right?`;
    case 'CONNECT_TIMEOUT':
      return `${origin} did not take the connection within ${formatDuration(profile.timeouts.connect)} (${error.code}): is the address right?`;
    case 'HEADERS_TIMEOUT':
    case 'EXCHANGE_TIMEOUT':
      return `${origin} did not answer within ${formatDuration(error.code === 'HEADERS_TIMEOUT' ? profile.timeouts.headers : profile.timeouts.exchange)} (${error.code}): is the address right?`;
    default:
      return `cannot reach ${origin}: ${error.code} ${error.message}`;
  }
}

/**
 * Exit 2 when the API's own list redirects: every call of the run would be redirected, and a
 * redirect is never followed (the token goes to the verified target only), so a wrong base URL or
 * API prefix is the likely cause.
 */
function redirected(exchange: Exchange, origin: string): string | null {
  const response = exchange.response;
  if (!response || response.status < 300 || response.status >= 400) return null;
  const location = response.headers.location;
  let hint = 'is --target the origin that serves the API (and the profile\'s api_prefix its prefix)?';
  if (location !== undefined) {
    try {
      const to = new URL(location, exchange.request.url);
      if (to.protocol === 'http:') hint = `it points to plain http://, which §1 forbids (HTTPS-ONLY); ${hint}`;
      else if (to.origin !== origin) hint = `it points to another origin, ${to.origin}: if that is the API, certify it with --target ${to.origin}`;
      else hint = `it stays on ${origin}: if ${to.pathname} is the API's list of users, set the profile's api_prefix to match`;
    } catch {
      hint = `its Location is not a URL; ${hint}`;
    }
  }
  return (
    `GET ${exchange.request.url} answered ${response.status} with ${location === undefined ? 'no Location' : `Location: ${location}`}: the target redirects the API's own path, ` +
    `so every call of the run would be redirected, and clockcheck follows no redirect (the token goes to ${origin} only). A wrong base URL is the likely cause: ${hint}.`
  );
}

/**
 * Before any check: GET /users with the token as §5.2 sends it (`Authorization: <token>`). Served,
 * the run goes on in that form. Refused (401, 403, the profile's unauthenticated status), it asks
 * again with `Authorization: Bearer <token>`: served, every check but AUTH-HEADER-RAW's runs with
 * Bearer and AUTH-HEADER-RAW fails with both exchanges as evidence; refused too, the run cannot be
 * made and exits 2 with one line (the token is wrong or revoked). One broken precondition is one
 * verdict, not a failure of every check under rules it does not test.
 * @throws RunError when the target cannot be reached or refuses the token in both forms.
 */
export async function preflight(
  client: Pick<TargetClient, 'send' | 'useScheme'>,
  origin: string,
  profile: Profile,
  replay: string,
  /** The list asked for (`clockcheck init` asks for a page of 100 users, to read them too). */
  query: Readonly<Record<string, string | number>> = {},
): Promise<Preflight> {
  const raw = await client.send({ method: 'GET', path: '/users', query, auth: 'raw-token' });
  const problem = unreachable(raw, origin, profile) ?? redirected(raw, origin);
  if (problem) throw new RunError(problem, [raw]);
  const check = (status: CheckResult['status'], exchanges: Exchange[], extra: Partial<CheckResult>): CheckResult => ({
    id: TOKEN_FORM_CHECK_ID,
    title: TITLE,
    rules: ['AUTH-HEADER-RAW'],
    source: { kind: 'builtin', name: 'preflight' },
    status,
    findings: [],
    exchanges,
    durationMs: exchanges.reduce((ms, e) => ms + e.durationMs, 0),
    replay,
    ...extra,
  });
  const status = raw.response?.status ?? 0;
  if (!refusesToken(status, profile)) {
    client.useScheme('raw');
    const served = status >= 200 && status < 300;
    return {
      scheme: 'raw',
      check: served ? check('passed', [raw], {}) : check('errored', [raw], { reason: `GET /users answered ${status}${excerpt(raw)}: neither served nor refused, so the token form cannot be judged` }),
      note: null,
    };
  }
  const bearer = await client.send({ method: 'GET', path: '/users', query, auth: 'bearer-token' });
  const bearerProblem = unreachable(bearer, origin, profile) ?? redirected(bearer, origin);
  if (bearerProblem) throw new RunError(bearerProblem, [raw, bearer]);
  const bearerStatus = bearer.response?.status ?? 0;
  if (bearerStatus < 200 || bearerStatus >= 300) {
    throw new RunError(
      `the token was refused: GET ${raw.request.url} answered ${status}${excerpt(raw)} to Authorization: <token> (§5.2) and ${bearerStatus} to Authorization: Bearer <token>. ` +
        `Check that ${profile.token_env} holds a current token of this target (a token is valid until it is revoked, §5.4) and that --target is that server.`,
      [raw, bearer],
    );
  }
  client.useScheme('bearer');
  return {
    scheme: 'bearer',
    check: check('failed', [raw, bearer], {
      findings: [
        {
          ruleId: 'AUTH-HEADER-RAW',
          expected: 'GET /users served with Authorization: <token>, the raw token (§5.2)',
          actual: `${status} with the raw token; ${bearerStatus} with Authorization: Bearer <token>`,
          exchangeIds: [raw.id, bearer.id],
        },
      ],
    }),
    note: `the target refused the token as §5.2 sends it (Authorization: <token>: ${status}) and served Authorization: Bearer <token> (${bearerStatus}): AUTH-HEADER-RAW fails, and every other check ran with Bearer`,
  };
}

/**
 * The second company's token (profile second_company), sent once where the plan uses it: served, or
 * a RunError naming its variable (a refused token is the user's to mend, not a verdict on the
 * target; without this the checks that use it would end errored on their first write).
 */
export async function secondTokenPreflight(client: TargetClient, origin: string, profile: Profile): Promise<Exchange> {
  const exchange = await client.send({ method: 'GET', path: '/users', query: { page_size: 1 }, auth: 'second-token' });
  const problem = unreachable(exchange, origin, profile) ?? redirected(exchange, origin);
  if (problem) throw new RunError(problem, [exchange]);
  const status = exchange.response?.status ?? 0;
  if (refusesToken(status, profile)) {
    throw new RunError(
      `the second company's token was refused: GET ${exchange.request.url} answered ${status}${excerpt(exchange)} to it. ` +
        `Check that ${profile.second_company?.token_env ?? 'second_company.token_env'} holds a current administrator token of another company of this target (profile second_company.token_env).`,
      [exchange],
    );
  }
  return exchange;
}
