import { UsageError } from '../errors.ts';
import { isTimezoneName } from '../contract/formats/index.ts';
import { parseRateLimit, type RateLimitSetting } from '../contract/rate-limit.ts';

// Parsers for `kind: 'parsed'` options that several commands share. Each throws a UsageError that says
// the expected form; the option table prefixes the command and the flag (`run: --rate-limit: …`).

/** `--rate-limit LIMIT/WINDOW` for a command that paces itself by the target's limit (run, init): `off` is refused. */
export function pacingRateLimit(text: string): RateLimitSetting {
  const setting = parseRateLimit(text);
  if (!setting) throw new UsageError("off is not allowed: clockcheck paces itself by the target's limit");
  return setting;
}

/** `--timezone ZONE`: an IANA timezone name. */
export function timezoneName(text: string): string {
  if (!isTimezoneName(text)) throw new UsageError(`"${text}" is not an IANA timezone name`);
  return text;
}
