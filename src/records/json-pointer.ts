/** Resolves a JSON pointer (RFC 6901) in `json`; undefined when a step is missing. */
export function resolvePointer(json: unknown, pointer: string): unknown {
  let value = json;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(key)) return undefined;
      value = value[Number(key)];
    } else {
      if (!Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
  }
  return value;
}

/** The pointer one step up (`/data/id` → `/data`, `/id` → ``, the whole document). */
export function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}
