/**
 * What `clockcheck init` established about one profile key: the value and how it was found (the
 * request and what answered it), or why it could not be found and what the user should fill in.
 * init never guesses: a value the target's answers do not establish is a NotFound, never a default.
 */
export interface Found<T> {
  readonly value: T;
  /** How it was found, e.g. "GET /api/public/users?active=1 → 200: records say active: true". */
  readonly how: string;
}

export interface NotFound {
  readonly value?: undefined;
  /** Why it was not found, and what to fill in. */
  readonly why: string;
}

export type Discovery<T> = Found<T> | NotFound;

export const found = <T>(value: T, how: string): Found<T> => ({ value, how });
export const notFound = (why: string): NotFound => ({ why });

export function isFound<T>(d: Discovery<T>): d is Found<T> {
  return d.value !== undefined;
}
