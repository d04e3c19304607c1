/**
 * The JSON paths of assertions and captures: `$`, `$.a.b`, `$.items[0].id`, `$.items[*].id`.
 * `select` returns every value the path reaches (none when a step is missing).
 */
type Segment = { readonly key: string } | { readonly index: number } | { readonly all: true };

const SEGMENT = /\.([A-Za-z_][\w-]*)|\[(\d+|\*)\]/g;

export function parsePath(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error(`JSON path ${path} must start with $`);
  const segments: Segment[] = [];
  for (const match of path.slice(1).matchAll(SEGMENT)) {
    if (match[1] !== undefined) segments.push({ key: match[1] });
    else if (match[2] === '*') segments.push({ all: true });
    else segments.push({ index: Number(match[2]) });
  }
  return segments;
}

/** Every value `path` reaches in `json`. */
export function select(json: unknown, path: string): unknown[] {
  let current: unknown[] = [json];
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
