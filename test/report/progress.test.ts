import { describe, expect, it } from 'vitest';
import { formatEta, Progress, type ProgressStream } from '../../src/report/progress.ts';

class FakeStream implements ProgressStream {
  output = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns = 80,
  ) {}
  write(text: string): boolean {
    this.output += text;
    return true;
  }
}

function fakeTime() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('Progress on a TTY', () => {
  it('rewrites one line with a bar and an ETA, and clears it at the end', () => {
    const stream = new FakeStream(true);
    const time = fakeTime();
    const progress = new Progress({ stream, total: 4, label: 'run', now: time.now, redrawEveryMs: 0 });
    time.advance(1000);
    progress.tick();
    expect(stream.output).toBe('\r' + 'run [ 1/4] 25% ETA 3s [########......................]' + '\x1b[K');
    time.advance(1000);
    progress.tick(3);
    expect(stream.output).not.toContain('\n');
    expect(stream.output.split('\r').at(-1)).toBe('run [ 4/4] 100% [##############################]\x1b[K');
    progress.finish();
    expect(stream.output.endsWith('\r\x1b[K')).toBe(true);
  });

  it('redraws at most once per redraw interval', () => {
    const stream = new FakeStream(true);
    const time = fakeTime();
    const progress = new Progress({ stream, total: 1000, now: time.now });
    for (let i = 0; i < 999; i++) progress.tick();
    expect(stream.output.split('\r').length - 1).toBe(1);
    time.advance(100);
    progress.tick();
    expect(stream.output.split('\r').length - 1).toBe(2);
  });

  it('prints nothing to clear when nothing was drawn', () => {
    const stream = new FakeStream(true);
    new Progress({ stream, total: 3 }).finish();
    expect(stream.output).toBe('');
  });
});

describe('Progress on a plain stream', () => {
  it('prints a line every 10 %, with the plan growing during the run', () => {
    const stream = new FakeStream(false);
    const time = fakeTime();
    const progress = new Progress({ stream, total: 200, now: time.now });
    for (let i = 0; i < 100; i++) {
      time.advance(100);
      progress.tick();
    }
    progress.plan(200);
    for (let i = 0; i < 300; i++) {
      time.advance(100);
      progress.tick();
    }
    progress.finish();
    const lines = stream.output.trimEnd().split('\n');
    expect(stream.output).not.toContain('\r');
    expect(lines[0]).toBe('[  20/200] 10% ETA 18s');
    expect(lines).toContain('[ 120/400] 30% ETA 28s');
    expect(lines.at(-1)).toBe('[ 400/400] 100%');
    expect(lines).toHaveLength(13); // 10–50 % of 200, then 30–100 % of 400
  });

  it('prints at least every 10 s when progress is slow', () => {
    const stream = new FakeStream(false);
    const time = fakeTime();
    const progress = new Progress({ stream, total: 1000, now: time.now });
    progress.tick();
    for (let i = 0; i < 5; i++) {
      time.advance(10_000);
      progress.tick();
    }
    expect(stream.output.trimEnd().split('\n')).toHaveLength(5);
  });

  it('shows the larger of the pace estimate and the given estimate', () => {
    const stream = new FakeStream(false);
    const time = fakeTime();
    const progress = new Progress({ stream, total: 10, now: time.now, estimateMs: (remaining) => remaining * 60_000 });
    time.advance(10);
    progress.tick();
    expect(stream.output).toBe('[  1/10] 10% ETA 9m00s\n');
  });

  it('prints only counts and a cleaned, short label', () => {
    const stream = new FakeStream(false);
    const progress = new Progress({ stream, total: 1, label: `schedules\u001b[2J\r\n${'x'.repeat(100)}` });
    progress.tick();
    expect(stream.output).toBe(`schedules[2J${'x'.repeat(28)} [ 1/1] 100%\n`);
  });
});

describe('formatEta', () => {
  it.each([
    [0, '0s'],
    [1, '1s'],
    [59_000, '59s'],
    [130_000, '2m10s'],
    [3_720_000, '1h02m'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatEta(ms)).toBe(text);
  });
});
