/** The reference tokens of a JSON pointer (RFC 6901), unescaped: `/a~1b/c` is `a/b`, `c`. */
function tokens(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Resolves a JSON pointer (RFC 6901) in `json`; undefined when a step is missing. */
export function resolvePointer(json: unknown, pointer: string): unknown {
  let value = json;
  for (const key of tokens(pointer)) {
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

/** Sets `value` at `pointer` in the object `json`, making objects on the way (for building a body). */
export function setPointer(json: Record<string, unknown>, pointer: string, value: unknown): void {
  const keys = tokens(pointer);
  let at = json;
  for (const key of keys.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]!] = value;
}

/** Removes the member at `pointer` from its object, if there is one. */
export function deletePointer(json: unknown, pointer: string): void {
  const parent = resolvePointer(json, parentPointer(pointer));
  const keys = tokens(pointer);
  if (typeof parent === 'object' && parent !== null && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[keys[keys.length - 1]!];
}
