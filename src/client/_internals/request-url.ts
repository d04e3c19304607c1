import { ClockcheckError } from '../../errors.ts';
import type { Redactor } from '../redaction.ts';

/** Where a request goes, as TargetRequest says it: a path under the API prefix, or an absolute URL; and a query. */
export interface RequestTarget {
  readonly path?: string;
  readonly url?: string;
  readonly query?: Readonly<Record<string, string | number>>;
}

/**
 * The absolute URL of a request: `origin` + `prefix` + its path, or its `url` when that is on
 * `origin` (kept as written when possible); then its query, percent-encoded, after any query
 * already there.
 * @throws ClockcheckError `CLOCKCHECK_TARGET_DATA` for a `url` that is not absolute or not on `origin`.
 */
export function requestUrl(origin: string, prefix: string, request: RequestTarget, redactor: Redactor): string {
  const target = request.url === undefined ? prefix + leadingSlash(request.path!) : pathOnOrigin(origin, request.url, redactor);
  return origin + withQuery(target, request.query);
}

/** The path (with query) of an absolute URL on the target's origin, kept as written when possible. */
function pathOnOrigin(origin: string, url: string, redactor: Redactor): string {
  if (url.startsWith(`${origin}/`)) return url.slice(origin.length);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ClockcheckError('CLOCKCHECK_TARGET_DATA', `not an absolute URL: ${redactor.text(url)}`);
  }
  if (parsed.origin !== origin) {
    throw new ClockcheckError('CLOCKCHECK_TARGET_DATA', `${redactor.text(url)} is not on the target's origin ${origin}`);
  }
  return parsed.pathname + parsed.search;
}

function leadingSlash(path: string): string {
  return path === '' || path.startsWith('/') ? path : `/${path}`;
}

function withQuery(path: string, query: Readonly<Record<string, string | number>> | undefined): string {
  if (query === undefined) return path;
  const pairs = Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  if (pairs.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}
