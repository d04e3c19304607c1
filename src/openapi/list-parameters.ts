import type { ListParameter } from '../contract/operations.ts';
import type { Json } from './_internals/json-schema-of.ts';
import type { OpenApiReading } from './openapi-reading.ts';

/** `page_size` (§4.6, §8): at most 100; a larger value is clamped or rejected, so only a reading of `reject` bounds the parameter. */
function pageSize(reading: OpenApiReading): Json {
  const reject = reading.pageSizeOverMax === 'reject';
  const over = { reject: 'a larger value is rejected (the profile declares it)', clamp: 'a larger value is clamped to 100 (the profile declares it)', either: 'a larger value is clamped or rejected, never served' }[reading.pageSizeOverMax];
  return {
    name: 'page_size',
    in: 'query',
    description: `Items per page (default 10, at most 100: ${over}).`,
    schema: { type: 'integer', minimum: 1, ...(reject ? { maximum: 100 } : {}), default: 10 },
    example: 10,
    'x-rule-ids': ['PAG-PAGE-SIZE-DEFAULT', 'PAG-PAGE-SIZE-MAX'],
  };
}

const FIXED: Record<Exclude<ListParameter, 'page_size'>, Json> = {
  page: { name: 'page', in: 'query', description: 'The page, from 1 (default 1).', schema: { type: 'integer', minimum: 1, default: 1 }, example: 1, 'x-rule-ids': ['PAG-PAGE-DEFAULT'] },
  sort: {
    name: 'sort',
    in: 'query',
    description: 'Comma-separated field names; a leading `-` sorts descending.',
    schema: { type: 'string', pattern: '^-?[A-Za-z_][A-Za-z0-9_]*(?:,-?[A-Za-z_][A-Za-z0-9_]*)*$' },
    example: 'id',
    'x-rule-ids': ['SORT-ASCENDING', 'SORT-DESCENDING', 'SORT-MULTI', 'SORT-FIELD-NAMES'],
  },
  search: { name: 'search', in: 'query', description: 'Returns the items that match the value.', schema: { type: 'string' }, 'x-rule-ids': ['SEARCH-MATCHES'] },
  date_range: {
    name: 'date_range',
    in: 'query',
    description: 'Two dates, `Y-m-d,Y-m-d`: the items between them.',
    schema: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2},[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    example: '2026-10-01,2026-10-31',
    'x-rule-ids': ['DATE-RANGE', 'DATE-RANGE-INVALID'],
  },
  active: { name: 'active', in: 'query', description: '1: active users only; 0: inactive only.', schema: { type: 'integer', enum: [0, 1] }, example: 1, 'x-rule-ids': ['USR-LIST-FILTER-ACTIVE'] },
  role: { name: 'role', in: 'query', description: 'Only users with this role: 1 Admin, 2 Manager, 3 Employee.', schema: { type: 'integer', enum: [1, 2, 3] }, example: 3, 'x-rule-ids': ['USR-LIST-FILTER-ROLE'] },
};

/** A list's query parameter (§4.6) as an OpenAPI parameter, with its example and rule IDs. */
export function listParameter(name: ListParameter, reading: OpenApiReading): Json {
  return name === 'page_size' ? pageSize(reading) : FIXED[name];
}
