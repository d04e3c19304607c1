import type { ExchangeRequest } from '../exchange.ts';

/** Path characters undici sends (its `invalidPathRegex`), and header value characters (its `headerCharRegex`). */
const UNSENDABLE_IN_PATH = /[^\u0021-\u00ff]/;
const UNSENDABLE_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/** What of a request undici would refuse (a path or header character, shown escaped), or null when it can be sent. */
export function unsendablePart(request: ExchangeRequest, originLength: number): string | null {
  const path = request.url.slice(originLength);
  const inPath = UNSENDABLE_IN_PATH.exec(path);
  if (inPath) return `${JSON.stringify(inPath[0])} in its path`;
  for (const [name, value] of Object.entries(request.headers)) {
    const inHeader = UNSENDABLE_IN_HEADER.exec(value);
    if (inHeader) return `${JSON.stringify(inHeader[0])} in its ${JSON.stringify(name)} header`;
  }
  return null;
}
