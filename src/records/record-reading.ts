/**
 * How to read the records the spec does not show (§2.1, §2.2, §2.3: "response record: not shown"):
 * where a created record and a list's items are, and how field names are spelled. Resolved once
 * from the profile; every reader of such records (expectations, built-in checks, `init`) takes it.
 */
export interface RecordReading {
  /**
   * `snake`: field names as the spec writes them (first_name); `camel`: their camelCase (firstName),
   * else as written; `auto`: as written, else the camelCase. `exact` is for records the spec shows
   * (§2.4): as written.
   */
  readonly fields: 'auto' | 'snake' | 'camel' | 'exact';
  /** JSON pointer to a list's items (the profile's `list_items`); default: `items`, else the only array. */
  readonly listItems?: string;
  /** JSON pointer to a created resource's ID (the profile's `id_pointer`); its parent is the record. */
  readonly idPointer?: string;
}

/** The reading when nothing is declared: names auto-detected, envelopes found by shape. */
export const AUTO_READING: RecordReading = { fields: 'auto' };

/** The reading a profile declares. */
export function recordReading(profile: {
  readonly record_fields: 'auto' | 'snake' | 'camel';
  readonly list_items?: string | undefined;
  readonly id_pointer?: string | undefined;
}): RecordReading {
  return {
    fields: profile.record_fields,
    ...(profile.list_items === undefined ? {} : { listItems: profile.list_items }),
    ...(profile.id_pointer === undefined ? {} : { idPointer: profile.id_pointer }),
  };
}

/** Paths whose answers the spec shows (§4.4: GET and POST /breaks), under any prefix, with or without a query. */
const SPEC_SHAPED = /(^|\/)breaks\/?$/;

/**
 * The reading of the answer to a request to `path` (relative, or a full URL): the spec's own for
 * what it shows (§4.4 fixes the break list and the break create answer: `items`, the break in it,
 * whatever the profile's `id_pointer` or `list_items` say of the records it does not show), else
 * the profile's. Field names are still read as written, else in camelCase, for value assertions.
 */
export function recordReadingFor(profile: Parameters<typeof recordReading>[0], path: string): RecordReading {
  return SPEC_SHAPED.test(pathOnly(path)) ? AUTO_READING : recordReading(profile);
}

/** The path of a relative path or a full URL, without its query (a search for `breaks` is no break list). */
function pathOnly(path: string): string {
  try {
    return /^https?:/.test(path) ? new URL(path).pathname : (path.split('?')[0] ?? path);
  } catch {
    return path;
  }
}
