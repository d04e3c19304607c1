import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsIdentity } from '../../src/tls/certificate.ts';

/**
 * A target that echoes the Authorization value it received in every form a careless or hostile
 * server might (issue 24): raw, upper-cased, percent-encoded, hex, as HTML character references, as
 * JSON escapes, as base64 and base64url after prefixes of 0, 1 and 2 bytes, base64 of
 * `Authorization: <value>`, line-wrapped base64, and base64 twice. Shared by the secrecy tests of
 * test/run/ (echo-secrecy, artifact-secrecy).
 */
export function echoForms(value: string): Record<string, string> {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const wrapped = b64(`${'padding '.repeat(12)}${value}${' tail'.repeat(12)}`).replace(/.{76}/g, '$&\r\n');
  return {
    raw: value,
    upper: value.toUpperCase(),
    percent: encodeURIComponent(value),
    percentEveryByte: [...Buffer.from(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    hex: Buffer.from(value).toString('hex'),
    hexUpper: Buffer.from(value).toString('hex').toUpperCase(),
    htmlDecimal: [...value].map((c) => `&#${c.codePointAt(0)};`).join(''),
    htmlHex: [...value].map((c) => `&#X${c.codePointAt(0)!.toString(16).toUpperCase()};`).join(''),
    htmlSpecial: value.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
    // Python's quote(): the slash kept.
    percentKeepingSlash: encodeURIComponent(value).replace(/%2F/g, '/'),
    // In a link's query: base64 with its + / = percent-encoded.
    base64InQuery: encodeURIComponent(b64(`x${value}`)),
    // The JSON escapes a body carries as they are (see RAW_IN_BODY): every character, Go's HTML-safe `<>&`, PHP's `\/`.
    jsonUnicode: value.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    jsonHtmlSafe: value.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    base64JsonSlashes: b64(`xy${value}`).replace(/\//g, '\\/'),
    base64: b64(value),
    base64After1: b64(`x${value}`),
    base64After2: b64(`xy${value}`),
    base64Url: Buffer.from(`x${value}`).toString('base64url'),
    base64OfAuthorization: b64(`Authorization: ${value}`),
    base64Wrapped: wrapped,
    base64Twice: b64(b64(value)),
  };
}

/** Which Authorization values the echo target serves. */
export type EchoAccepts = 'raw' | 'bearer' | 'none';

export interface EchoTargetOptions {
  /**
   * `raw`: any value holding the token (the run keeps §5.2's form); `bearer`: only `Bearer <token>`
   * (the run falls back to Bearer and fails AUTH-HEADER-RAW); `none`: nothing (the run cannot be made).
   */
  readonly accepts: EchoAccepts;
  /** Serve every path (a list that also "accepts" every write), not only `/users`. */
  readonly servesAll?: boolean;
  /** Lists hold one record (a user whose fields echo the value) instead of none. */
  readonly records?: boolean;
  /** Another token accepted in the same form (a second company's). */
  readonly alsoAccepts?: string;
}

export interface EchoTarget {
  readonly origin: string;
  /** Every Authorization value the target received, in order of arrival (distinct). */
  readonly received: ReadonlySet<string>;
  /** Answers from now on as `options` say (a token revoked: `{ accepts: 'none' }`). */
  set(options: EchoTargetOptions): void;
  close(): Promise<void>;
}

/** The headers of one answer: every echo that a header can carry, one of them in a header's name. */
function echoHeaders(got: string, forms: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  // A header's name, when the value can be one (an alphanumeric token).
  if (/^[A-Za-z0-9 -]+$/.test(got) && got.length > 0) headers[`x-echo-${got.replace(/ /g, '-').toLowerCase()}`] = '1';
  for (const [name, form] of Object.entries(forms)) if (!/[\r\n]/.test(form) && /^[\x20-\x7e]*$/.test(form)) headers[`x-echo-${name.toLowerCase()}`] = form;
  return headers;
}

/** The forms that are JSON escapes: a body carries them as escapes (JSON.stringify would escape their backslashes). */
const RAW_IN_BODY = ['jsonUnicode', 'jsonHtmlSafe', 'base64JsonSlashes'];

/** An empty list with every echo in its body, the JSON escapes as escapes, and a copy written as PHP writes JSON (`\/`). */
function echoBody(got: string, forms: Record<string, string>, records: boolean): string {
  const items = records ? [{ id: 1, first_name: `received ${got}`, last_name: forms.base64, email: forms.percent, employee_code: forms.hex, active: true, role_id: 1 }] : [];
  const pagination = { total: items.length, count: items.length, per_page: 10, current_page: 1, total_pages: 1, links: {} };
  let body = JSON.stringify({ id: 1, items, meta_data: { pagination }, message: `received ${got}`, echo: forms, php: '' });
  body = body.replace('"php":""', () => `"php":${JSON.stringify({ message: `received ${got}`, echo: forms }).replace(/\//g, '\\/')}`);
  for (const name of RAW_IN_BODY) body = body.replaceAll(JSON.stringify(forms[name]).slice(1, -1), () => forms[name]!);
  return body;
}

/** Starts the echo target on loopback: `/users` (or any path, `servesAll`) answered 200 to an accepted token, 401 to anything else, echoing what it got. */
export async function startEchoTarget(token: string, tls: TlsIdentity, initially: EchoTargetOptions = { accepts: 'raw' }): Promise<EchoTarget> {
  let options = initially;
  const received = new Set<string>();
  const acceptedAs = (got: string, one: string) => (options.accepts === 'raw' ? got.includes(one) : options.accepts === 'bearer' ? got === `Bearer ${one}` : false);
  const accepted = (got: string) => acceptedAs(got, token) || (options.alsoAccepts !== undefined && acceptedAs(got, options.alsoAccepts));
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    req.resume();
    const got = req.headers.authorization ?? '';
    if (got !== '') received.add(got);
    const forms = echoForms(got);
    const served = accepted(got) && (options.servesAll || req.url?.startsWith('/api/public/users') === true);
    res.writeHead(served ? 200 : 401, echoHeaders(got, forms));
    res.end(req.method === 'HEAD' ? undefined : echoBody(got, forms, options.records === true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    received,
    set: (next) => (options = next),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
