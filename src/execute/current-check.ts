import { AsyncLocalStorage } from 'node:async_hooks';

/** The check whose code is running, followed through its awaits (a check's calls may interleave with a released one's). */
const CURRENT = new AsyncLocalStorage<string>();

/** Runs `work` as the check `id`: every request it sends is known to be that check's (currentCheck). */
export function asCheck<T>(id: string, work: () => T): T {
  return CURRENT.run(id, work);
}

/** The check whose code sent the request being recorded; undefined outside every check (the census, the calls that meet the checks' needs). */
export function currentCheck(): string | undefined {
  return CURRENT.getStore();
}
