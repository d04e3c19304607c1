/**
 * The JSON paths of assertions and captures: `$`, `$.a.b`, `$.items[0].id`, `$.items[*].id`.
 * `select` returns every value the path reaches (none when a step is missing).
 *
 * Two roots find what the spec leaves "not shown" without assuming an envelope:
 * `$record` is the resource record of a create/edit response (the body itself when it has an `id`,
 * else the object, or one-element array, one envelope key deep), and `$list` is the items of a list
 * response (`items`, else the only array-valued top-level key).
 */
type Segment = { readonly key: string } | { readonly index: number } | { readonly all: true };

const SEGMENT = /\.([A-Za-z_][\w-]*)|\[(\d+|\*)\]/g;

export function parsePath(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error(`JSON path ${path} must start with $`);
  const segments: Segment[] = [];
  for (const match of path.slice(path.startsWith('$record') ? 7 : path.startsWith('$list') ? 5 : 1).matchAll(SEGMENT)) {
    if (match[1] !== undefined) segments.push({ key: match[1] });
    else if (match[2] === '*') segments.push({ all: true });
    else segments.push({ index: Number(match[2]) });
  }
  return segments;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The resource record of a create/edit response, wherever the target put it (see above). */
export function locateRecord(json: unknown): unknown {
  if (!isObject(json)) return undefined;
  if ('id' in json) return json;
  for (const value of Object.values(json)) {
    const inner = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (isObject(inner) && 'id' in inner) return inner;
  }
  return undefined;
}

/** The items of a list response: `items`, else the only array-valued top-level key. */
export function locateItems(json: unknown): unknown[] | undefined {
  if (!isObject(json)) return Array.isArray(json) ? json : undefined;
  if (Array.isArray(json.items)) return json.items;
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Every value `path` reaches in `json`. */
export function select(json: unknown, path: string): unknown[] {
  const root = path.startsWith('$record') ? locateRecord(json) : path.startsWith('$list') ? locateItems(json) : json;
  if (root === undefined) return [];
  let current: unknown[] = [root];
  for (const segment of parsePath(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('key' in segment) {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, segment.key)) {
          next.push((value as Record<string, unknown>)[segment.key]);
        }
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
