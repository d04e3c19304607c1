import { spellingOf } from '../records/field-name.ts';
import { resolvePointer } from '../contract/json-pointer.ts';
import { locateItems } from '../records/locate.ts';
import type { Exchange } from '../client/exchange.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A list response as init reads it: the items, where they were, and what the page says about itself. */
export interface ListAnswer {
  readonly exchange: Exchange;
  /** `GET /api/public/users?active=1 → 200`, for the profile's comments. */
  readonly said: string;
  readonly status: number | null;
  /** The items, or null when the answer is no 2xx list. */
  readonly items: readonly unknown[] | null;
  /** JSON pointer to the items when they are not where auto-detection looks (`items`, else the only array). */
  readonly pointer: string | null;
  /** `meta_data.pagination` when the answer has one (§2.5). */
  readonly pagination: Readonly<Record<string, unknown>> | null;
  /** Whether these items are the whole list (no further page). */
  readonly complete: boolean;
}

/** The request line of an exchange without the origin, and its answer: `GET /api/public/users?page_size=100 → 200`. */
export function said(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  const answer = exchange.response ? String(exchange.response.status) : (exchange.error?.code ?? 'no answer');
  return `${exchange.request.method} ${url.pathname}${url.search} → ${answer}`;
}

/** The first array of objects with an `id`, breadth-first within three levels: for envelopes auto-detection misses. */
function findItems(json: unknown): string | null {
  let level: Array<[string, unknown]> = [['', json]];
  for (let depth = 0; depth < 3; depth++) {
    const next: Array<[string, unknown]> = [];
    for (const [pointer, value] of level) {
      if (!isObject(value)) continue;
      for (const [key, child] of Object.entries(value)) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (Array.isArray(child) && child.length > 0 && child.every((c) => isObject(c) && 'id' in c)) return at;
        next.push([at, child]);
      }
    }
    level = next;
  }
  return null;
}

/** Reads a list answer: its items (by auto-detection, else by searching the envelope), pagination and completeness. */
export function readList(exchange: Exchange): ListAnswer {
  const response = exchange.response;
  const base = { exchange, said: said(exchange), status: response?.status ?? null };
  if (!response || exchange.error || response.status < 200 || response.status >= 300) {
    return { ...base, items: null, pointer: null, pagination: null, complete: false };
  }
  const json = response.json;
  let items: unknown[] | undefined = locateItems(json);
  let pointer: string | null = null;
  if (items === undefined || (items.length === 0 && findItems(json) !== null)) {
    pointer = findItems(json);
    const at = pointer === null ? undefined : resolvePointer(json, pointer);
    items = Array.isArray(at) ? at : undefined;
  }
  const pagination = isObject(json) && isObject(json.meta_data) && isObject(json.meta_data.pagination) ? json.meta_data.pagination : null;
  const total = typeof pagination?.total === 'number' ? pagination.total : null;
  const next = pagination?.next_page_url;
  const complete = items !== undefined && (total !== null ? items.length >= total : next === null || next === undefined);
  return { ...base, items: items ?? null, pointer, pagination, complete };
}

/** The spelling most records of a list use (`snake` or `camel`), or null when they do not show it. */
export function spellingOfList(items: readonly unknown[]): 'snake' | 'camel' | null {
  const votes = items.map(spellingOf);
  const snake = votes.filter((v) => v === 'snake').length;
  const camel = votes.filter((v) => v === 'camel').length;
  return snake === camel ? null : snake > camel ? 'snake' : 'camel';
}
