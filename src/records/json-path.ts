import { InternalError } from '../errors.ts';
import { readField } from './field-name.ts';
import { locateItems, locateRecord } from './locate.ts';
import { AUTO_READING, type RecordReading } from './record-reading.ts';

/**
 * The JSON paths of assertions and captures: `$`, `$.a.b`, `$.items[0].id`, `$.items[*].id`.
 * `select` returns every value the path reaches (none when a step is missing).
 *
 * Two roots find what the spec leaves "not shown" without assuming an envelope or a spelling:
 * `$record` is the resource record of a create/edit response and `$list` the items of a list
 * response (src/records/locate.ts); under them a field name is read in the spelling the reading
 * allows (`first_name` or `firstName`, src/records/field-name.ts). Under `$` names are exact.
 */
type Segment = { readonly key: string } | { readonly index: number } | { readonly all: true };

const SEGMENT = /\.([A-Za-z_][\w-]*)|\[(\d+|\*)\]/g;
const JSON_PATH = /^\$(record|list)?(\.[A-Za-z_][\w-]*|\[(\d+|\*)\])*$/;

/** The forms a JSON path takes, for the message of one that takes none. */
export const JSON_PATH_FORMS = 'expected a path like $.items[0].id, $.items[*].id, $record.role_id or $list[*].id';

/** Whether `path` is a JSON path of this grammar. Suites are checked with it when they load. */
export function isJsonPath(path: string): boolean {
  return JSON_PATH.test(path);
}

/** The steps of a path; the suite loader has checked it (isJsonPath), so a malformed one here is a bug. */
export function parsePath(path: string): Segment[] {
  if (!isJsonPath(path)) throw new InternalError(`JSON path "${path}" reached the run unchecked: ${JSON_PATH_FORMS}`);
  const segments: Segment[] = [];
  for (const match of path.slice(path.startsWith('$record') ? 7 : path.startsWith('$list') ? 5 : 1).matchAll(SEGMENT)) {
    if (match[1] !== undefined) segments.push({ key: match[1] });
    else if (match[2] === '*') segments.push({ all: true });
    else segments.push({ index: Number(match[2]) });
  }
  return segments;
}

/** Whether the path starts at `$record` or `$list`: it reads a record the spec does not show. */
export function readsRecords(path: string): boolean {
  return path.startsWith('$record') || path.startsWith('$list');
}

/** Every value `path` reaches in `json`; `$record`/`$list` are located and spelled as `reading` says. */
export function select(json: unknown, path: string, reading: RecordReading = AUTO_READING): unknown[] {
  const root = path.startsWith('$record') ? locateRecord(json, reading) : path.startsWith('$list') ? locateItems(json, reading) : json;
  if (root === undefined) return [];
  const fields = readsRecords(path) ? reading.fields : 'exact';
  let current: unknown[] = [root];
  for (const segment of parsePath(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('key' in segment) {
        const field = readField(value, segment.key, fields);
        if (field.found) next.push(field.value);
      } else if (Array.isArray(value)) {
        if ('all' in segment) next.push(...value);
        else if (segment.index < value.length) next.push(value[segment.index]);
      }
    }
    current = next;
  }
  return current;
}

/** True when the path has a `[*]`: its assertions hold for every value. */
export function isMultiPath(path: string): boolean {
  return path.includes('[*]');
}
