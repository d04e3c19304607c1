import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { RETAINED_BODY_CHARS, retainExchange } from '../../src/client/retained.ts';

const exchange = (body: string, json?: unknown): Exchange => ({
  id: 3,
  startedAt: '2026-11-22T10:00:00.000Z',
  sentAtMs: 1,
  durationMs: 2,
  request: { method: 'POST', url: 'https://t.test/api/public/users', headers: { authorization: '[REDACTED]' }, body: 'x'.repeat(RETAINED_BODY_CHARS + 5) },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body, bodyBytes: body.length, bodyTruncated: false, ...(json === undefined ? {} : { json }) },
});

describe('retainExchange: an exchange as a report keeps it', () => {
  it('keeps a short body whole and drops the parsed JSON', () => {
    const kept = retainExchange(exchange('{"items":[]}', { items: [] }));
    expect(kept.response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"items":[]}', bodyBytes: 12, bodyTruncated: false });
    expect('json' in kept.response!).toBe(false);
  });

  it('cuts a long body (and a long request body) at RETAINED_BODY_CHARS and marks it truncated, keeping the byte count', () => {
    const body = 'y'.repeat(1024 * 1024);
    const kept = retainExchange(exchange(body));
    expect(kept.response!.body.length).toBe(RETAINED_BODY_CHARS);
    expect(kept.response!.bodyTruncated).toBe(true);
    expect(kept.response!.bodyBytes).toBe(1024 * 1024);
    expect(kept.request.body!.length).toBe(RETAINED_BODY_CHARS);
  });

  it('keeps the error of an exchange without a response', () => {
    const failed: Exchange = { ...exchange(''), response: undefined, error: { code: 'EXCHANGE_TIMEOUT', message: 'late' } } as Exchange;
    const { response: _none, ...rest } = failed;
    expect(retainExchange(rest as Exchange)).toMatchObject({ id: 3, error: { code: 'EXCHANGE_TIMEOUT' } });
    expect(retainExchange(rest as Exchange).response).toBeUndefined();
  });

  it('is one copy per exchange: the same for the same exchange, and a retained exchange retains as itself', () => {
    const original = exchange('z'.repeat(RETAINED_BODY_CHARS * 2));
    const kept = retainExchange(original);
    expect(retainExchange(original)).toBe(kept);
    expect(retainExchange(kept)).toBe(kept);
  });
});
