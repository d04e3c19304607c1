import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { HeldProgress } from '../../src/cli/held-progress.ts';
import { Progress } from '../../src/report/progress.ts';

const answered = (id: number, status: number | null): Exchange => ({
  id,
  startedAt: new Date(0).toISOString(),
  sentAtMs: 0,
  durationMs: 1,
  request: { method: 'GET', url: 'https://t.test/api/public/users', headers: {} },
  ...(status === null ? { error: { code: 'CONNECTION_REFUSED' as const, message: 'refused' } } : { response: { status, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false } }),
});

/** A plain (non-TTY) stream that keeps what it was given. */
function sink(): { written: string[]; write: (text: string) => void } {
  const written: string[] = [];
  return { written, write: (text) => void written.push(text) };
}

describe('HeldProgress', () => {
  it('holds the progress of a preflight that fails, and drops it: the cause can come first', () => {
    const out = sink();
    const held = new HeldProgress(out);
    const progress = new Progress({ stream: held, total: 100, label: 'certifying' });
    for (const exchange of [answered(1, 401), answered(2, 401)]) {
      held.observe(exchange);
      progress.tick();
    }
    progress.finish(); // a plain stream gets a last line here, which would come before the cause
    held.settle(false);
    expect(out.written).toEqual([]);
    // Straight to the stream, the same progress would have printed its counts first.
    const direct = sink();
    const ungated = new Progress({ stream: direct, total: 100, label: 'certifying' });
    ungated.tick(2);
    ungated.finish();
    expect(direct.written).toEqual([expect.stringMatching(/^certifying \[ {3}2\/100\] 2%/)]);
  });

  it('lets the progress through, held lines first, once an answer is 2xx', () => {
    const out = sink();
    const held = new HeldProgress(out);
    held.write('a\n');
    held.observe(answered(1, 401));
    held.write('b\n');
    expect(out.written).toEqual([]);
    held.observe(answered(2, 200));
    held.write('c\n');
    expect(out.written).toEqual(['a\n', 'b\n', 'c\n']);
  });

  it('lets it through at the third exchange (the preflight sends two at most), or when the run ends made', () => {
    const third = sink();
    const held = new HeldProgress(third);
    held.write('x\n');
    held.observe(answered(1, 500));
    held.observe(answered(2, 404));
    expect(third.written).toEqual([]);
    held.observe(answered(3, 404));
    expect(third.written).toEqual(['x\n']);

    const ended = sink();
    const short = new HeldProgress(ended);
    short.observe(answered(1, 500));
    short.write('y\n');
    short.settle(true);
    expect(ended.written).toEqual(['y\n']);
  });

  it('keeps the stream\'s terminal facts, so the progress draws a bar on a TTY', () => {
    const held = new HeldProgress({ write: () => undefined, isTTY: true, columns: 120 });
    expect([held.isTTY, held.columns]).toEqual([true, 120]);
  });
});
