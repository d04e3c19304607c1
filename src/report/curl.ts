import type { ExchangeRequest } from '../client/exchange.ts';
import { REDACTED } from '../client/redaction.ts';
import { shellQuote } from './_internals/shell-quote.ts';

/** The shell variable a curl command reads the token from. */
export const TOKEN_VARIABLE = 'CLOCKCHECK_TOKEN';
/** The shell variable a curl command of a request sent with the second company's token reads it from. */
export const SECOND_TOKEN_VARIABLE = 'CLOCKCHECK_SECOND_TOKEN';

/** Headers that describe one connection, not the request; curl sets its own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);

/** How curl should trust the target's certificate. */
export interface CurlTlsOptions {
  /** CA certificate to trust (`--cacert FILE`); wins over `insecure`. */
  readonly caFile?: string;
  /** Skip certificate verification (`-k`). */
  readonly insecure?: boolean;
}

/** The variable the redacted token of an exchange is read from: the second company's for a request sent with its token. */
export function tokenVariableOf(exchange: { readonly company?: 'second' }): string {
  return exchange.company === 'second' ? SECOND_TOKEN_VARIABLE : TOKEN_VARIABLE;
}

/**
 * A POSIX shell command that sends `request` again with curl, one option per line.
 *
 * - The method: `-I` for HEAD, curl's default for GET and for POST with a body, else `-X METHOD`
 *   (so a GET with a body is `-X GET --data-raw …`, and a HEAD with a body, which curl's `-I`
 *   cannot send, is `-X HEAD --data-raw …`).
 * - Headers in recorded order, without hop-by-hop headers and `content-length` (curl computes it).
 * - An Authorization value the outcome redacted reads the token from `$CLOCKCHECK_TOKEN` (or
 *   `variable`: `$CLOCKCHECK_SECOND_TOKEN` for the second company's requests, tokenVariableOf), in
 *   double quotes so the shell expands it; an unredacted value (a deliberately wrong token) is kept.
 * - Everything else is single-quoted, so no shell character in a URL, header or body is expanded.
 * - `--globoff` when the URL has `[]{}`, which curl would otherwise read as a glob.
 */
export function curlCommand(request: ExchangeRequest, options: CurlTlsOptions, variable: string = TOKEN_VARIABLE): string {
  const hasBody = request.body !== undefined;
  const head = ['curl', '-sS', ...methodOptions(request.method, hasBody), ...tlsOptions(options)];
  const lines = [head.join(' ')];
  lines.push((/[[\]{}]/.test(request.url) ? '--globoff ' : '') + shellQuote(request.url));
  const extraHopByHop = connectionTokens(request.headers);
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || extraHopByHop.has(lower)) continue;
    lines.push(`-H ${headerArgument(name, value, variable)}`);
  }
  if (request.body !== undefined) lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

/** `-i` prints the response status and headers; `-I` is a HEAD request (which prints them too). */
function methodOptions(method: ExchangeRequest['method'], hasBody: boolean): string[] {
  if (method === 'HEAD' && !hasBody) return ['-I'];
  if ((method === 'GET' && !hasBody) || (method === 'POST' && hasBody)) return ['-i'];
  return ['-i', '-X', method];
}

function tlsOptions(options: CurlTlsOptions): string[] {
  if (options.caFile !== undefined) return ['--cacert', shellQuote(options.caFile)];
  return options.insecure ? ['-k'] : [];
}

/** Header names that a `Connection` header declares hop-by-hop. */
function connectionTokens(headers: Readonly<Record<string, string>>): Set<string> {
  const connection = Object.entries(headers).find(([name]) => name.toLowerCase() === 'connection')?.[1] ?? '';
  return new Set(connection.split(',').map((token) => token.trim().toLowerCase()).filter((token) => token !== ''));
}

/** `-H` argument; an empty value is written `name;`, which is how curl sends an empty header. */
function headerArgument(name: string, value: string, variable: string): string {
  if (name.toLowerCase() === 'authorization' && value.includes(REDACTED)) return authorizationArgument(name, value, variable);
  return shellQuote(value === '' ? `${name};` : `${name}: ${value}`);
}

/**
 * `"Authorization: $CLOCKCHECK_TOKEN"` when the whole value was redacted (the usual case);
 * otherwise the literal parts single-quoted and the variable double-quoted, side by side.
 */
function authorizationArgument(name: string, value: string, variable: string): string {
  if (value === REDACTED && /^[A-Za-z0-9-]+$/.test(name)) return `"${name}: $${variable}"`;
  const literals = `${name}: ${value}`.split(REDACTED);
  return literals.map((literal) => (literal === '' ? '' : shellQuote(literal))).join(`"$${variable}"`);
}
