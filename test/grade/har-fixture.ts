/** Builds HAR 1.2 files by hand for the grade tests: entries as a recorder writes them. */
export interface EntrySpec {
  readonly method?: string;
  readonly url: string;
  readonly at?: number;
  readonly time?: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly status: number;
  readonly responseHeaders?: Record<string, string>;
  readonly response?: unknown;
  readonly responseText?: string;
  readonly content?: Record<string, unknown>;
}

export const BASE = 'https://api.example.test/api/public';
export const TOKEN = 'grade-fixture-token-5b1d';
const T0 = Date.parse('2026-11-20T10:00:00Z');

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

export function entry(spec: EntrySpec): Record<string, unknown> {
  const hasBody = spec.body !== undefined || spec.rawBody !== undefined;
  const requestHeaders = { authorization: TOKEN, ...(hasBody ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const text = spec.responseText ?? (spec.response === undefined ? '' : JSON.stringify(spec.response));
  return {
    startedDateTime: new Date(T0 + (spec.at ?? 0)).toISOString(),
    time: spec.time ?? 20,
    request: {
      method: spec.method ?? 'GET',
      url: spec.url.startsWith('http') ? spec.url : `${BASE}${spec.url}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(Object.fromEntries(Object.entries(requestHeaders).filter(([, v]) => v !== ''))),
      queryString: [],
      ...(hasBody ? { postData: { mimeType: 'application/json', text: spec.rawBody ?? JSON.stringify(spec.body) } } : {}),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: spec.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs({ 'content-type': 'application/json', ...spec.responseHeaders }),
      content: { size: Buffer.byteLength(text), mimeType: 'application/json', text, ...spec.content },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: spec.time ?? 20, receive: 0 },
  };
}

export function har(entries: readonly Record<string, unknown>[]): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
}

/** A §2.4 break as GET /breaks lists it. */
export function listedBreak(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, start: '2026-10-01T12:00:00-05:00', end: '2026-10-01T12:30:00-05:00', break_rule_id: 1, duration_in_seconds: 1800, created_at: '2026-10-01T12:31:00', updated_at: '2026-10-01T12:31:00', ...extra };
}

/** A §2.5 list answer around `items`. */
export function page(items: readonly unknown[], block: Record<string, unknown> = {}): Record<string, unknown> {
  const url = `${BASE}/breaks`;
  return {
    meta_data: { pagination: { current_page: 1, first_page_url: `${url}?page=1`, from: items.length ? 1 : null, last_page: 1, last_page_url: `${url}?page=1`, next_page_url: null, path: url, per_page: 10, prev_page_url: null, to: items.length || null, total: items.length, options: false, ...block } },
    items,
  };
}
