import { describe, expect, it } from 'vitest';
import { HeldProgress } from '../../src/cli/held-progress.ts';
import { Progress } from '../../src/report/progress.ts';

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
    progress.tick(2);
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

  it('lets the progress through, held lines first, once the run is made', () => {
    const out = sink();
    const held = new HeldProgress(out);
    held.write('a\n');
    held.write('b\n');
    expect(out.written).toEqual([]);
    held.made();
    held.write('c\n');
    expect(out.written).toEqual(['a\n', 'b\n', 'c\n']);
  });

  it('lets it through when the run ends made, though made() was not called', () => {
    const ended = sink();
    const short = new HeldProgress(ended);
    short.write('y\n');
    short.settle(true);
    expect(ended.written).toEqual(['y\n']);
  });

  it('keeps the stream\'s terminal facts, so the progress draws a bar on a TTY', () => {
    const held = new HeldProgress({ write: () => undefined, isTTY: true, columns: 120 });
    expect([held.isTTY, held.columns]).toEqual([true, 120]);
  });
});
