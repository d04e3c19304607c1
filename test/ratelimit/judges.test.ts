import { describe, expect, it } from 'vitest';
import { CheckOutcome } from '../../src/ratelimit/check-outcome.ts';
import { BURST_BODY_BYTES, judgeBoundary } from '../../src/ratelimit/boundary.ts';
import { judgeSliding } from '../../src/ratelimit/sliding.ts';
import { judgePageSizesUnderLoad as judgeSizes } from '../../src/ratelimit/page-size-under-load.ts';
import { RateMonitor } from '../../src/ratelimit/monitor.ts';
import { timed } from '../../src/ratelimit/window-count.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import { call, calls } from './synthetic.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { RETAINED_BODY_CHARS } from '../../src/client/retained.ts';

const WINDOW = 60_000;
const profile = (changes: Partial<Profile['rate_limit']> = {}): Profile => {
  const base = defaultProfile();
  return { ...base, rate_limit: { ...base.rate_limit, ...changes } };
};
const outcome = (id = 'rate-limit/boundary') => new CheckOutcome(id, 'title', ['RATE-LIMIT-CAP'], 'clockcheck run --only x');
/** The page sizes of `answers` asked in order, each answered by its copies. */
const judgePageSizesUnderLoad = (answers: ReadonlyMap<number, readonly Exchange[]>, profile: Profile, outcome: CheckOutcome) =>
  judgeSizes([...answers.keys()], async (size) => answers.get(size)!, profile, outcome);
const rulesOf = (result: { findings: readonly { ruleId: string }[] }) => result.findings.map((f) => f.ruleId);

describe('judgeBoundary with the paced checks\' calls opening the window', () => {
  /** 55 calls of the checks (2xx and 4xx alike: §8 counts all requests), then a burst of 9 at 1000 ms. */
  const paced = (extra: readonly Exchange[] = []) => [...calls(0, 30, 201, 5), ...calls(150, 25, 422, 5), ...extra];
  const burst = (served: number, limited: number, status: number | null = 429) => ({ exchanges: [...calls(1000, served, 200), ...calls(1000 + served, limited, status)], unanswered: 0 });

  it('passes 55 counted calls and 5 of the burst served, the rest 429, and says how the window was opened', () => {
    const result = judgeBoundary(burst(5, 4), profile(), outcome(), undefined, paced());
    expect(result.status).toBe('passed');
    expect(result.notes?.[0]).toMatch(/55 calls of the paced checks first \(201 ×30, 422 ×25\), then 9 calls at once/);
  });

  it('fails RATE-LIMIT-CAP when the burst serves one more than the paced calls left (off by one)', () => {
    const result = judgeBoundary(burst(6, 3), profile(), outcome(), undefined, paced());
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-CAP']);
    expect(result.findings[0]!.actual).toMatch(/^55 paced calls counted and 6 of the burst served within/);
  });

  it('fails RATE-LIMIT-QUOTA when it serves one fewer, and when a paced call of the window was refused', () => {
    expect(rulesOf(judgeBoundary(burst(4, 5), profile(), outcome(), undefined, paced()))).toEqual(['RATE-LIMIT-QUOTA']);
    const refused = judgeBoundary(burst(0, 9), profile(), outcome(), undefined, paced([call(400, 429)]));
    expect(rulesOf(refused)).toEqual(['RATE-LIMIT-QUOTA']);
  });

  it('neither fails RATE-LIMIT-QUOTA for a call that may not have counted (401, 5xx, no token) nor counts it toward RATE-LIMIT-CAP', () => {
    const unsure = paced([call(400, 401)]);
    // The limiter did not count the 401: 5 served; it did: 4 served. Both pass.
    expect(judgeBoundary(burst(5, 4), profile(), outcome(), undefined, unsure).status).toBe('passed');
    expect(judgeBoundary(burst(4, 5), profile(), outcome(), undefined, unsure).status).toBe('passed');
    expect(rulesOf(judgeBoundary(burst(3, 6), profile(), outcome(), undefined, unsure))).toEqual(['RATE-LIMIT-QUOTA']);
  });

  it('judges RATE-LIMIT-STATUS on the burst alone: the checks\' own 4xx answers are theirs to judge', () => {
    expect(rulesOf(judgeBoundary(burst(5, 4, 503), profile(), outcome(), undefined, paced()))).toEqual(['RATE-LIMIT-STATUS']);
  });

  it('draws no verdict when the paced calls and the burst did not fit in one window', () => {
    const late = { exchanges: [...calls(WINDOW, 5, 200), ...calls(WINDOW + 5, 4, 429)], unanswered: 0 };
    expect(judgeBoundary(late, profile(), outcome(), undefined, paced()).status).toBe('errored');
  });
});

describe('judgeBoundary (a burst of 60 + 4 after a quiet window)', () => {
  const burst = (served: number, limitedStatus: number | null, limited: number) => ({
    exchanges: [...calls(0, served, 200), ...calls(served, limited, limitedStatus)],
    unanswered: 0,
  });

  it('passes exactly 60 served and the rest 429, and notes the rate-limit headers', () => {
    const exchanges = [...calls(0, 60, 200), call(60, 429, { headers: { 'retry-after': '58' } }), ...calls(61, 3, 429)];
    const result = judgeBoundary({ exchanges, unanswered: 0 }, profile(), outcome());
    expect(result.status).toBe('passed');
    expect(result.notes?.join('\n')).toContain('retry-after: 58');
    expect(result.notes?.join('\n')).toMatch(/64 calls sent at once.*200 ×60, 429 ×4/);
  });

  it('fails RATE-LIMIT-CAP for 61 served, saying how many in how long', () => {
    const result = judgeBoundary(burst(61, 429, 3), profile(), outcome());
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-CAP']);
    expect(result.findings[0]!.actual).toMatch(/^61 served within \d+ ms$/);
  });

  it('fails RATE-LIMIT-QUOTA for 59 served', () => {
    expect(rulesOf(judgeBoundary(burst(59, 429, 5), profile(), outcome()))).toEqual(['RATE-LIMIT-QUOTA']);
  });

  it('fails RATE-LIMIT-STATUS when the calls beyond the limit get 503', () => {
    const result = judgeBoundary(burst(60, 503, 4), profile(), outcome());
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-STATUS']);
    expect(result.findings[0]!.actual).toContain('503 ×4');
  });

  it('asserts the 429 body only when the profile names its text (RATE-LIMIT-BODY)', () => {
    const plain = { exchanges: [...calls(0, 60, 200), ...Array.from({ length: 4 }, (_, i) => call(60 + i, 429, { body: '{"error":"slow down"}' }))], unanswered: 0 };
    expect(judgeBoundary(plain, profile(), outcome()).status).toBe('passed');
    expect(rulesOf(judgeBoundary(plain, profile({ body_text: 'Too Many Attempts' }), outcome()))).toEqual(['RATE-LIMIT-BODY']);
    expect(judgeBoundary(burst(60, 429, 4), profile({ body_text: 'too many attempts' }), outcome()).status).toBe('passed');
  });

  it('does not fail RATE-LIMIT-BODY on a 429 body cut before the text could appear (a burst keeps BURST_BODY_BYTES)', () => {
    const cut = (id: number) => {
      const exchange = call(60 + id, 429, { body: ' '.repeat(BURST_BODY_BYTES) });
      return { ...exchange, response: { ...exchange.response!, bodyBytes: 5000, bodyTruncated: true } };
    };
    const result = judgeBoundary({ exchanges: [...calls(0, 60, 200), ...[0, 1, 2, 3].map(cut)], unanswered: 0 }, profile({ body_text: 'Too Many Attempts' }), outcome());
    expect(result.status).toBe('passed');
    expect(result.notes?.join('\n')).toContain(`4 429 bodies longer than the ${BURST_BODY_BYTES} bytes a burst call keeps`);
    const whole = { exchanges: [...calls(0, 60, 200), cut(0), call(61, 429, { body: '{"error":"slow down"}' })], unanswered: 0 };
    expect(rulesOf(judgeBoundary(whole, profile({ body_text: 'Too Many Attempts' }), outcome()))).toEqual(['RATE-LIMIT-BODY']);
  });

  it('draws no verdict from a burst that took a whole window, or that nothing answered', () => {
    const slow = { exchanges: [...calls(0, 60, 200, 1000), ...calls(60_000, 4, 429)], unanswered: 0 };
    expect(judgeBoundary(slow, profile(), outcome()).status).toBe('errored');
    expect(judgeBoundary({ exchanges: [], unanswered: 64 }, profile(), outcome()).status).toBe('errored');
    expect(judgeBoundary({ exchanges: calls(0, 64, 401), unanswered: 0 }, profile(), outcome()).reason).toContain('does not answer 2xx');
  });

  it('does not call 58 served a QUOTA failure when 2 calls got no answer (they may have been served)', () => {
    const result = judgeBoundary({ exchanges: [...calls(0, 58, 200), ...calls(58, 4, 429)], unanswered: 2 }, profile(), outcome());
    expect(result.status).toBe('errored');
    expect(result.reason).toContain('2 of 64 calls got no response');
  });
});

describe('judgeSliding (the straddle of a window reset)', () => {
  const opener = call(100_000, 200);
  const served = (list: ReturnType<typeof calls>, segment: string) => list.filter((e) => e.response?.status === 200).map((e) => timed(e, segment));
  /** The page sizes a quarter of a window after the opener: page_size=100 served, the others refused as invalid (422). */
  const pageSizes = () => [...calls(115_000, 4, 200), ...calls(115_010, 16, 422)];
  const straddle = (before: Exchange[], after: Exchange[]) => ({ opener, windowFrom: 99_000, before: { exchanges: before, unanswered: 0 }, after: { exchanges: after, unanswered: 0 } });

  it('passes a sliding window: after the reset only what the calls before it left free is served', () => {
    const before = pageSizes();
    const after = [...calls(100_000 + 61_500, 39, 200), ...calls(100_000 + 61_540, 21, 429)];
    const all = [...served([opener], 'poll'), ...served(before, 'page-size'), ...served(after, 'straddle-after')];
    const result = judgeSliding(all, straddle(before, after), 60, WINDOW, outcome('rate-limit/sliding'));
    expect(result.status).toBe('passed');
    expect(result.notes?.join('\n')).toContain('before the reset: 20 calls (20 counted)');
  });

  it('fails a fixed window, which serves all of the burst after its reset: one served call before it is enough', () => {
    const before = pageSizes();
    const after = calls(100_000 + 61_500, 60, 200);
    const all = [...served([opener], 'poll'), ...served(before, 'page-size'), ...served(after, 'straddle-after')];
    const result = judgeSliding(all, straddle(before, after), 60, WINDOW, outcome('rate-limit/sliding'));
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-SLIDING']);
    expect(result.findings[0]!.actual).toBe('64 calls served within 46.6 s (page-size: 4, straddle-after: 60)');
    expect(result.findings[0]!.exchangeIds).toHaveLength(4);
    const one = [call(115_000, 200), ...calls(115_010, 19, 422)];
    const withOne = judgeSliding([...served(one, 'page-size'), ...served(after, 'straddle-after')], straddle(one, after), 60, WINDOW, outcome('rate-limit/sliding'));
    expect(withOne.findings[0]!.actual).toBe('61 calls served within 46.6 s (page-size: 1, straddle-after: 60)');
  });

  it('draws no verdict when the calls before the reset end after the earliest reset a window after the opener', () => {
    const before = calls(99_000 + 60_000, 4, 200); // the last refused poll was sent at 99 000: a clock-aligned reset may come at 159 000
    const after = [call(100_000 + 61_500, 200)];
    const result = judgeSliding([], straddle(before, after), 60, WINDOW, outcome('rate-limit/sliding'));
    expect(result.status).toBe('errored');
    expect(result.reason).toContain('missed');
  });

  describe('calls before the reset answered after the earliest reset (a busy machine answers the last of them late)', () => {
    // The earliest reset is at 159 000 (the last refused poll at 99 000, a window later): 4 page-size calls well before it, 5 of the checks' calls answered just after it.
    const inTime = calls(115_000, 4, 200);
    const lateCall = (status: number, i: number) => call(158_900 + i, status, { durationMs: 200 });
    const late = (status = 200) => [0, 1, 2, 3, 4].map((i) => lateCall(status, i));
    const judge = (before: Exchange[], after: Exchange[]) =>
      judgeSliding([...served([opener], 'poll'), ...served(before, 'straddle-before'), ...served(after, 'straddle-after')], straddle(before, after), 60, WINDOW, outcome('rate-limit/sliding'));

    it('fails a fixed window still: counted in either window, the late calls and the burst after the reset fit under the limit in its new window, so it serves the burst whole', () => {
      const before = [...inTime, ...late()];
      const after = calls(100_000 + 61_500, 60 - 9 + 1, 200); // straddleAfterCalls(60, 9)
      const result = judge(before, after);
      expect(rulesOf(result)).toEqual(['RATE-LIMIT-SLIDING']);
      expect(result.findings[0]!.actual).toBe('61 calls served within 46.6 s (straddle-before: 9, straddle-after: 52)');
    });

    it('passes a sliding window, and says how many were answered late', () => {
      const before = [...inTime, ...late()];
      const after = [...calls(100_000 + 61_500, 51, 200), call(100_000 + 61_560, 429)];
      const result = judge(before, after);
      expect(result.status).toBe('passed');
      expect(result.notes?.join('\n')).toContain('before the reset: 9 calls (9 counted, 5 of them answered after the earliest reset)');
    });

    it('draws no verdict when a call before the reset got no answer at all (it may have reached the limiter after the reset)', () => {
      const before = [...inTime, ...late()];
      const after = [...calls(100_000 + 61_500, 51, 200), call(100_000 + 61_560, 429)];
      const result = judgeSliding([...served([opener], 'poll'), ...served(before, 'straddle-before'), ...served(after, 'straddle-after')], { ...straddle(before, after), before: { exchanges: before, unanswered: 1 } }, 60, WINDOW, outcome('rate-limit/sliding'));
      expect(result).toMatchObject({ status: 'errored', findings: [] });
      expect(result.reason).toContain('before the reset: 200 ×9, 1 unanswered');
    });

    it('draws no verdict when a late call may not have counted (a fixed window could have counted it in its new window and refused the burst for it)', () => {
      const before = [...inTime, ...late(), lateCall(503, 5)];
      const after = [...calls(100_000 + 61_500, 51, 200), call(100_000 + 61_560, 429)]; // a fixed window that counted the 503 in its new one would refuse one too
      const result = judge(before, after);
      expect(result).toMatchObject({ status: 'errored', findings: [] });
      expect(result.reason).toContain('missed');
    });
  });

  it('draws no verdict when nothing before the reset certainly counted (a fixed window could then serve the burst and stay within the limit)', () => {
    const before = calls(115_000, 20, 500);
    const after = calls(100_000 + 61_500, 60, 200);
    const result = judgeSliding(served(after, 'straddle-after'), straddle(before, after), 60, WINDOW, outcome('rate-limit/sliding'));
    expect(result).toMatchObject({ status: 'errored', findings: [] });
    expect(result.reason).toContain('before the reset: 500 ×20, none counted');
  });
});

describe('no vacuous verdict in the rate-limit judges', () => {
  it('judgeBoundary: a burst answered 500 throughout is errored, not passed', () => {
    const result = judgeBoundary({ exchanges: calls(0, 64, 500), unanswered: 0 }, profile(), outcome());
    expect(result).toMatchObject({ status: 'errored', findings: [] });
    expect(result.reason).toContain('500 ×64');
  });

  it('judgeSliding: straddle calls answered 500 are errored, never passed (the served count shows nothing)', () => {
    const opener = call(100_000, 200);
    const before = calls(106_000, 4, 500);
    const after = calls(100_000 + 61_500, 60, 500);
    const result = judgeSliding([timed(opener, 'poll')], { opener, windowFrom: 99_000, before: { exchanges: before, unanswered: 0 }, after: { exchanges: after, unanswered: 0 } }, 60, WINDOW, outcome('rate-limit/sliding'));
    expect(result).toMatchObject({ status: 'errored', findings: [] });
    expect(result.reason).toBe("the straddle's calls were not decided (before the reset: 500 ×4, none counted; after it: 500 ×60): the sliding window needs a call before the reset that certainly counted and the limiter's decision on every call after it");
  });

  it('judgeSliding: a few undecided calls (no response) after the reset are errored too', () => {
    const opener = call(100_000, 200);
    const before = calls(106_000, 4, 200);
    const after = [call(100_000 + 61_500, 200), call(100_000 + 61_501, null), ...calls(100_000 + 61_502, 58, 429)];
    const served = [opener, ...before, ...after].filter((e) => e.response?.status === 200).map((e) => timed(e, 'x'));
    const result = judgeSliding(served, { opener, windowFrom: 99_000, before: { exchanges: before, unanswered: 0 }, after: { exchanges: after, unanswered: 0 } }, 60, WINDOW, outcome('rate-limit/sliding'));
    expect(result.status).toBe('errored');
    expect(result.reason).toContain('CONNECTION_RESET ×1');
  });

  it('judgePageSizesUnderLoad: no page size served at all (500 or 4xx throughout) is errored, without findings', async () => {
    const all500 = new Map([100, 101, 1000, 0, -1].map((size, i) => [size, calls(i * 10, 4, 500)] as const));
    const result = await judgePageSizesUnderLoad(all500, defaultProfile(), outcome('rate-limit/page-size-under-load'));
    expect(result).toMatchObject({ status: 'errored', findings: [], reason: 'no page_size was served (500 ×20): the page_size limit needs a list the target serves' });
    const all401 = new Map([100, 101].map((size, i) => [size, calls(i * 10, 4, 401)] as const));
    expect((await judgePageSizesUnderLoad(all401, defaultProfile(), outcome('rate-limit/page-size-under-load'))).status).toBe('errored');
  });
});

describe('judgePageSizesUnderLoad', () => {
  const page = (items: number, perPage: number) => ({ data: Array.from({ length: items }, (_, i) => ({ id: i })), meta_data: { pagination: { per_page: perPage } } });
  const answers = (size: number, list: ReturnType<typeof call>[]) => [size, list] as const;

  it('passes clamps and rejections that agree across copies', async () => {
    const result = await judgePageSizesUnderLoad(
      new Map([answers(101, Array.from({ length: 4 }, (_, i) => call(i, 200, { json: page(12, 100) }))), answers(0, calls(10, 4, 422))]),
      defaultProfile(),
      outcome('rate-limit/page-size-under-load'),
    );
    expect(result.status).toBe('passed');
  });

  it('asks one size after another, and keeps each page as a report keeps it once judged', async () => {
    const asked: number[] = [];
    const big = 'x'.repeat(3 * RETAINED_BODY_CHARS);
    const result = await judgeSizes(
      [100, 101],
      async (size) => {
        asked.push(size);
        return Array.from({ length: 4 }, (_, i) => call(size + i, 200, { json: page(12, 100), body: big }));
      },
      defaultProfile(),
      outcome('rate-limit/page-size-under-load'),
    );
    expect(asked).toEqual([100, 101]);
    expect(result.status).toBe('passed');
    expect(result.exchanges).toHaveLength(8);
    for (const exchange of result.exchanges) expect(exchange.response!.body.length).toBe(RETAINED_BODY_CHARS);
  });

  it('fails copies that disagree, and pages over 100', async () => {
    const mixed = [call(0, 200, { json: page(12, 100) }), call(1, 200, { json: page(12, 100) }), call(2, 422), call(3, 200, { json: page(12, 1000) })];
    const result = await judgePageSizesUnderLoad(new Map([answers(1000, mixed)]), defaultProfile(), outcome('rate-limit/page-size-under-load'));
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.actual)).toContain('per_page 1000');
    expect(result.findings.some((f) => f.expected.includes('same answer') && f.actual.includes('422 ×1'))).toBe(true);
  });

  it('blames a 5xx for page_size=0 on ERR-NO-SERVER-ERROR, and cannot judge all-429', async () => {
    const servedAt100 = answers(100, Array.from({ length: 4 }, (_, i) => call(20 + i, 200, { json: page(12, 100) })));
    expect(rulesOf(await judgePageSizesUnderLoad(new Map([servedAt100, answers(0, calls(0, 4, 500))]), defaultProfile(), outcome()))).toContain('ERR-NO-SERVER-ERROR');
    expect((await judgePageSizesUnderLoad(new Map([answers(0, calls(0, 4, 429))]), defaultProfile(), outcome())).status).toBe('errored');
  });
});

describe('RateMonitor (the whole run)', () => {
  it('passes a paced run and reports the busiest interval', () => {
    const monitor = new RateMonitor();
    for (const e of calls(0, 200, 200, 1200)) monitor.observe(e, 'paced');
    const result = monitor.check(60, WINDOW, 'replay');
    expect(result.status).toBe('passed');
    expect(result.notes?.[0]).toMatch(/200 calls watched; the busiest interval: 50 calls served/);
  });

  it('blames one burst on RATE-LIMIT-CAP and an excess across parts of the run on RATE-LIMIT-SLIDING', () => {
    const single = new RateMonitor();
    for (const e of calls(0, 61, 200)) single.observe(e, 'boundary');
    expect(rulesOf(single.check(60, WINDOW, 'r'))).toEqual(['RATE-LIMIT-CAP']);
    const across = new RateMonitor();
    for (const e of calls(0, 59, 200)) across.observe(e, 'straddle-before');
    for (const e of calls(5000, 60, 200)) across.observe(e, 'straddle-after');
    expect(rulesOf(across.check(60, WINDOW, 'r'))).toEqual(['RATE-LIMIT-SLIDING']);
  });

  it('counts 429s outside the rate-limit checks as unintended, and a premature one breaks RATE-LIMIT-QUOTA', () => {
    const monitor = new RateMonitor();
    for (const e of calls(0, 10, 200, 100)) monitor.observe(e, 'paced');
    monitor.observe(call(2000, 429), 'paced');
    monitor.observe(call(90_000, 429), 'boundary');
    expect(monitor.unintended429).toBe(1);
    const result = monitor.check(60, WINDOW, 'r');
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-QUOTA']);
    expect(result.findings[0]!.actual).toContain('at most 10 of the harness');
  });

  it('judges the calls under each limiter at its window once the target\'s limiter is restarted (the embedded server\'s two windows)', () => {
    const quickPaced = () => calls(0, 200, 200, 2); // 50 per 100 ms: under 60 per 100 ms, far over 60 per second
    const restarted = new RateMonitor();
    for (const e of quickPaced()) restarted.observe(e, 'paced');
    restarted.limiterRestarted(1000);
    for (const e of calls(1000, 60, 200)) restarted.observe(e, 'boundary');
    const result = restarted.check(60, 100, 'r');
    expect(result.status).toBe('passed');
    expect(result.title).toContain('No 100 ms or 1.0 s interval');
    expect(result.notes?.join('\n')).toMatch(/under the 100 ms window, 200 calls; the busiest interval: 48 calls served[\s\S]*under the 1\.0 s window, 60 calls/);

    const notRestarted = new RateMonitor();
    for (const e of quickPaced()) notRestarted.observe(e, 'paced');
    expect(rulesOf(notRestarted.check(60, 1000, 'r'))).toEqual(['RATE-LIMIT-CAP']);

    const overAfter = new RateMonitor();
    for (const e of quickPaced()) overAfter.observe(e, 'paced');
    overAfter.limiterRestarted(1000);
    for (const e of calls(1000, 61, 200)) overAfter.observe(e, 'boundary');
    expect(rulesOf(overAfter.check(60, 100, 'r'))).toEqual(['RATE-LIMIT-CAP']);
  });

  it('notes, without failing, a 429 after the harness itself made 60 calls in the window', () => {
    const monitor = new RateMonitor();
    for (const e of calls(0, 60, 200, 10)) monitor.observe(e, 'paced');
    monitor.observe(call(700, 429), 'paced');
    const result = monitor.check(60, WINDOW, 'r');
    expect(result.status).toBe('passed');
    expect(result.notes?.join(' ')).toContain('the pacing did not keep the run under the limit');
  });
});
