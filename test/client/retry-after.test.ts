import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/client/retry-after.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('reads delay-seconds and HTTP-dates', () => {
    expect(retryAfterMs('58', now)).toBe(58_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('is null when absent or neither form', () => {
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('-5', now)).toBeNull();
    expect(retryAfterMs('1.5', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('2026-11-23', now)).toBeNull();
  });
});
