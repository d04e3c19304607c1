import { IANAZone } from 'luxon';

/**
 * Spec §2.1, §2.3: a timezone is an IANA-style name such as `America/Chicago`.
 * Fixed offsets (`+05:00`) and abbreviations (`CST`) are not IANA names even where Intl accepts them.
 */
const IANA_NAME_SHAPE = /^(?:[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+){1,2}|UTC|Etc\/[A-Za-z0-9_+-]+)$/;

/** The runtime's canonical spelling of a zone name (Intl looks names up case-insensitively), or null. */
function canonicalSpelling(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * True when `name` is a timezone name of the IANA database that this Node runtime knows, spelt as
 * the database spells it: `America/chicago` or `EUROPE/LONDON` are not names even though Intl accepts them.
 */
export function isTimezoneName(name: string): boolean {
  const known = answers.get(name);
  if (known !== undefined) return known;
  const answer = lookUp(name);
  if (answers.size >= ANSWERS_KEPT) answers.clear();
  answers.set(name, answer);
  return answer;
}

/**
 * Answers already given: each costs two Intl lookups (about 0.2 ms; the reference server and the
 * generators ask for the same few names thousands of times a run). Bounded, since the names come
 * from requests and generated cases.
 */
const answers = new Map<string, boolean>();
const ANSWERS_KEPT = 1024;

function lookUp(name: string): boolean {
  if (!IANA_NAME_SHAPE.test(name) || !IANAZone.isValidZone(name)) return false;
  const canonical = canonicalSpelling(name);
  // A link (Asia/Kolkata -> Asia/Calcutta) resolves to another name; only a case-only difference is a misspelling.
  return canonical === null || canonical === name || canonical.toLowerCase() !== name.toLowerCase();
}
