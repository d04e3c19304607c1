import { parseDateRange, type DateRange } from '../contract/formats/index.ts';
import { ApiError, validationError, type ServerViolation } from './http/api-response.ts';
import type { ServerContext } from './context.ts';
import type { Dialect } from './dialect.ts';

/** Spec §4.6, §8: page_size default and maximum. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}

/** The common collection parameters of §4.6, resolved. */
export interface ListQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly sort: readonly SortKey[];
  readonly search: string | null;
  /** The range asked for; `lastDayLeftOut` under the `date-range-end-exclusive` fault. */
  readonly dateRange: ListDateRange | null;
}

export type ListDateRange = DateRange & { readonly lastDayLeftOut?: boolean };

/** Sortable names of one endpoint: both spellings (camelCase as in §4.2, and snake_case) to a record field; the dialect's `sortNames` says which it accepts. */
export type SortableFields = Readonly<Record<string, string>>;

/**
 * Builds a SortableFields map accepting both `firstName` and `first_name` for `first_name`.
 * `storedAs` names the record field to compare for a sort name (e.g. `start` → `start_ms`, so
 * datetimes written with different offsets sort by instant, not by their text).
 */
export function sortable(fields: readonly string[], storedAs: Readonly<Record<string, string>> = {}): SortableFields {
  const map: Record<string, string> = {};
  for (const field of fields) {
    const target = storedAs[field] ?? field;
    map[field] = target;
    map[field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = target;
  }
  return map;
}

/**
 * Whether the dialect accepts a sort name's spelling: a camelCase name has a capital, a snake_case
 * name an underscore, and a one-word name (id, email) is spelled the same in both.
 */
function spellingAccepted(name: string, accepted: Dialect['sortNames']): boolean {
  if (accepted === 'camel') return !name.includes('_');
  if (accepted === 'snake') return !/[A-Z]/.test(name);
  return true;
}

function positiveInteger(query: URLSearchParams, name: string, violations: ServerViolation[]): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  if (!/^-?\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    violations.push({ rule: null, field: name, message: `${name} must be a positive integer` });
    return null;
  }
  return Number(raw);
}

/**
 * Parses page, page_size, sort, search and date_range (§4.6). A page_size above 100 is clamped
 * to 100 (a valid choice: the spec allows clamping or rejecting); 0, negatives and non-integers get a 422.
 */
export function parseListQuery(query: URLSearchParams, fields: SortableFields, ctx: ServerContext): ListQuery {
  const violations: ServerViolation[] = [];
  const zeroBased = ctx.fault('page-zero-based');
  // A page that is no number read as one, and used: NaN reaches the pagination and crashes it.
  if (ctx.fault('page-not-number-500') && query.get('page') !== null && !/^-?\d+$/.test(query.get('page') as string)) throw new TypeError('Cannot read properties of undefined (reading "slice")');
  const page = positiveInteger(query, 'page', violations) ?? (zeroBased ? 0 : 1);
  const requested = positiveInteger(query, 'page_size', violations) ?? (ctx.fault('page-size-default-15') ? 15 : DEFAULT_PAGE_SIZE);
  if ((requested > MAX_PAGE_SIZE && ctx.dialect.pageSizeOverMax === 'reject' && !ctx.fault('page-size-uncapped')) || (requested === MAX_PAGE_SIZE && ctx.fault('page-size-100-refused'))) {
    violations.push({ rule: 'PAG-PAGE-SIZE-MAX', field: 'page_size', message: `page_size must be at most ${MAX_PAGE_SIZE}` });
  }
  const pageSize = ctx.fault('page-size-uncapped') ? requested : Math.min(requested, MAX_PAGE_SIZE);

  const sort: SortKey[] = [];
  const sortText = query.get('sort');
  if (sortText) {
    for (const name of sortText.split(',')) {
      const descending = name.startsWith('-');
      const bare = descending ? name.slice(1) : name;
      const spelled = spellingAccepted(bare, ctx.dialect.sortNames);
      const field = spelled && Object.hasOwn(fields, bare) ? fields[bare] : undefined;
      if (!field) {
        if (ctx.fault('sort-unknown-500')) throw new TypeError(`Cannot read properties of undefined (reading "${bare}")`);
        const offered = Object.keys(fields).filter((spelling) => spellingAccepted(spelling, ctx.dialect.sortNames));
        violations.push({ rule: null, field: 'sort', message: `cannot sort by "${bare}"; sortable: ${offered.join(', ')}` });
        continue;
      }
      sort.push({ field, descending: descending && !ctx.fault('sort-descending-ignored') });
    }
  }

  const rangeText = query.get('date_range');
  const dateRange = rangeText ? parseDateRange(rangeText) : null;
  if (rangeText && !dateRange) {
    violations.push({ rule: null, field: 'date_range', message: 'date_range must be two dates YYYY-MM-DD joined by a comma' });
  }
  if (violations.length > 0) throw validationError(violations);

  return {
    page,
    pageSize,
    sort: ctx.fault('sort-ignored') ? [] : ctx.fault('sort-multi-ignored') ? sort.slice(0, 1) : sort,
    search: ctx.fault('search-ignored') ? null : query.get('search') || null,
    dateRange: ctx.fault('date-range-ignored') || !dateRange ? null : { ...dateRange, lastDayLeftOut: ctx.fault('date-range-end-exclusive') },
  };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'string' && typeof b === 'string') {
    const folded = a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
    return folded !== 0 ? folded : a < b ? -1 : 1;
  }
  return (a as number) < (b as number) ? -1 : 1;
}

/** Sorts by each key in turn (§4.6), ties broken by ascending ID so pages are stable; under `sort-id-as-text`, IDs compared as text ("10" before "9"). */
export function sortRecords<T extends { id: number }>(records: T[], keys: readonly SortKey[], ctx?: ServerContext): T[] {
  const asText = ctx?.fault('sort-id-as-text') ?? false;
  return [...records].sort((x, y) => {
    for (const key of keys) {
      const [a, b] = [(x as Record<string, unknown>)[key.field], (y as Record<string, unknown>)[key.field]];
      const order = asText && key.field === 'id' ? compareValues(String(a), String(b)) : compareValues(a, b);
      if (order !== 0) return key.descending ? -order : order;
    }
    return x.id - y.id;
  });
}

/** Throws a 422 for a filter value that is not one of the allowed ones. */
export function parseFilter<T>(query: URLSearchParams, name: string, values: Readonly<Record<string, T>>): T | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  if (!Object.hasOwn(values, raw)) {
    throw new ApiError(422, `${name} must be one of ${Object.keys(values).join(', ')}`, [
      { rule: null, field: name, message: `unknown ${name} value "${raw}"` },
    ]);
  }
  return values[raw] as T;
}
