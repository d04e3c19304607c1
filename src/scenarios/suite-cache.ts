import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Scenario } from './format.ts';

/**
 * The shipped suites, parsed when the package is built (scripts/cache-suites.mjs): a suite's YAML and
 * its validation cost a quarter to half a second of a process's start, every `run` and `rules`
 * paid it, and the result only depends on the text. A text is looked up by its SHA-256 (with the
 * check names it was validated against); a suite the user wrote or changed is not in it and is
 * parsed as always. Absent (the TypeScript sources, a build that did not write it): nothing is cached.
 */
export const PARSED_SUITES_FILE = 'parsed-suites.json';

/** A scenario as cached: a LoadedScenario without its file, which is the path it is shown by (it depends on the working directory). */
export interface CachedScenario {
  readonly id: string;
  readonly suite: string;
  readonly line: number;
  readonly scenario: Scenario;
}

let shipped: ReadonlyMap<string, readonly CachedScenario[]> | null | undefined;

/** The key of a suite's text validated against `knownChecks`. */
export function suiteKey(text: string, knownChecks: readonly string[]): string {
  return createHash('sha256').update(knownChecks.join(',')).update('\u0000').update(text).digest('hex');
}

/** The shipped parse of this text, if the build cached it. */
export function shippedSuite(text: string, knownChecks: readonly string[]): readonly CachedScenario[] | undefined {
  if (shipped === undefined) {
    try {
      shipped = new Map(Object.entries(JSON.parse(readFileSync(new URL(`./${PARSED_SUITES_FILE}`, import.meta.url), 'utf8')) as Record<string, CachedScenario[]>));
    } catch {
      shipped = null;
    }
  }
  return shipped?.get(suiteKey(text, knownChecks));
}
