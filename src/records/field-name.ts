import type { RecordReading } from './record-reading.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `first_name` → `firstName`. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `firstName` → `first_name`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The spellings a field name may have in a record, in the order they are tried. */
export function spellings(name: string, fields: RecordReading['fields']): readonly string[] {
  switch (fields) {
    case 'exact':
    case 'snake':
      return [name];
    case 'camel': {
      // The spec's own spelling is never wrong: a camelCase server may keep it on the records the spec shows (§2.4).
      const camel = camelCase(name);
      return camel === name ? [name] : [camel, name];
    }
    case 'auto': {
      const other = camelCase(name);
      return other === name ? [name] : [name, other];
    }
  }
}

/** A record field under the first spelling the record has; `found` false when it has none. */
export function readField(record: unknown, name: string, fields: RecordReading['fields']): { readonly found: boolean; readonly value?: unknown } {
  if (!isObject(record)) return { found: false };
  for (const spelled of spellings(name, fields)) {
    if (Object.hasOwn(record, spelled)) return { found: true, value: record[spelled] };
  }
  return { found: false };
}

/** The spelling a record uses for its field names: `snake` when any key has an underscore, `camel` when any key has an inner capital, null when neither shows. */
export function spellingOf(record: unknown): 'snake' | 'camel' | null {
  if (!isObject(record)) return null;
  const keys = Object.keys(record);
  const snake = keys.some((k) => /^[a-z0-9]+(_[a-z0-9]+)+$/.test(k));
  const camel = keys.some((k) => /^[a-z][a-z0-9]*[A-Z]/.test(k));
  return snake === camel ? null : snake ? 'snake' : 'camel';
}
