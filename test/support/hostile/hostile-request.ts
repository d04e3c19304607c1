/** Where a hostile request comes from; the test reports its counts per category. */
export type HostileCategory = 'fuzz-invalid' | 'garbage-body' | 'hostile-target';

export const HOSTILE_CATEGORIES: readonly HostileCategory[] = ['fuzz-invalid', 'garbage-body', 'hostile-target'];

/**
 * One request a client may throw at the reference server. `path` is the raw request target, sent as
 * is (no URL normalisation: `..`, `%zz` and doubled slashes reach the server).
 */
export interface HostileRequest {
  readonly category: HostileCategory;
  /** What the request is, for people: "user: password missing an uppercase letter", "1e400 in role_id". */
  readonly label: string;
  readonly method: string;
  readonly path: string;
  /** Extra headers; `content-type: application/json` is sent unless given here (null: none). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The Authorization header: the server's token when absent, none when null. */
  readonly authorization?: string | null;
  readonly body?: string | Uint8Array;
}

/** The API prefix every request of the catalog is sent under (§9). */
export const PREFIX = '/api/public';

/** The operations that take a JSON body, with a valid body for each built from the seed (IDs of the reference seed). */
export const BODY_ROUTES: ReadonlyArray<{ readonly method: 'POST' | 'PUT'; readonly path: string }> = [
  { method: 'POST', path: '/users' },
  { method: 'PUT', path: '/users/1' },
  { method: 'POST', path: '/schedules' },
  { method: 'PUT', path: '/schedules/1' },
  { method: 'POST', path: '/timesheets' },
  { method: 'POST', path: '/breaks' },
  { method: 'POST', path: '/webhooks/subscription' },
];

/** Every route the reference serves, with the methods it answers (HEAD mirrors GET). */
export const ROUTES: ReadonlyArray<{ readonly path: string; readonly methods: readonly string[] }> = [
  { path: '/users', methods: ['GET', 'POST'] },
  { path: '/users/1', methods: ['PUT'] },
  { path: '/schedules', methods: ['POST'] },
  { path: '/schedules/1', methods: ['PUT'] },
  { path: '/timesheets', methods: ['GET', 'POST'] },
  { path: '/breaks', methods: ['GET', 'POST'] },
  { path: '/webhooks/subscription', methods: ['GET', 'POST'] },
  { path: '/webhooks/subscription/unsubscribe', methods: ['DELETE'] },
];

/** The collection routes that read §4.6's query parameters. */
export const LIST_ROUTES: readonly string[] = ['/users', '/timesheets', '/breaks'];

/**
 * A request target a client can put on the wire as is: spaces and control characters
 * percent-encoded, characters beyond U+00FF as their UTF-8 bytes (raw, unescaped). Undici writes a
 * target as latin-1 and refuses anything else.
 */
export function onTheWire(target: string): string {
  let out = '';
  for (const char of target) {
    const code = char.codePointAt(0) as number;
    if (code <= 0x20 || code === 0x7f) out += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (code > 0xff) out += Buffer.from(char, 'utf8').toString('latin1');
    else out += char;
  }
  return out;
}

/** What undici refuses to send (it throws InvalidArgumentError): a target or header value outside latin-1. */
export const UNSENDABLE_TARGET = /[^\u0021-\u00ff]/;
export const UNSENDABLE_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The first `length` characters of a body, printable, for a failure message. */
export function excerpt(body: HostileRequest['body'], length = 160): string {
  if (body === undefined) return '(no body)';
  const text = typeof body === 'string' ? body : `<${body.byteLength} bytes> ${Buffer.from(body.subarray(0, length)).toString('hex')}`;
  const shown = text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;
  return JSON.stringify(shown);
}
