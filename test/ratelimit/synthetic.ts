import type { Exchange } from '../../src/client/exchange.ts';

let nextId = 1;

/** A recorded call to the probe, sent at `at` ms, answered after `durationMs` with `status` (null: no response). */
export function call(at: number, status: number | null, options: { durationMs?: number; body?: string; headers?: Record<string, string>; json?: unknown; url?: string } = {}): Exchange {
  const id = nextId++;
  return {
    id,
    startedAt: new Date(at).toISOString(),
    sentAtMs: at,
    durationMs: options.durationMs ?? 5,
    request: { method: 'GET', url: options.url ?? 'https://target.test/api/public/users', headers: { authorization: '[REDACTED]' } },
    ...(status === null
      ? { error: { code: 'CONNECTION_RESET' as const, message: 'socket hang up' } }
      : {
          response: {
            status,
            headers: options.headers ?? {},
            body: options.body ?? (status === 429 ? '{"message":"Too Many Attempts."}' : '{"data":[]}'),
            bodyBytes: 10,
            bodyTruncated: false,
            ...(options.json === undefined ? {} : { json: options.json }),
          },
        }),
  };
}

/** `count` calls sent `gapMs` apart from `at`, all with `status`. */
export function calls(at: number, count: number, status: number | null, gapMs = 1): Exchange[] {
  return Array.from({ length: count }, (_, i) => call(at + i * gapMs, status));
}
