import { describe, expect, it } from 'vitest';
import { burstsUnjudged, onceMoreIfUnjudged, ruleUnjudged, secondBurstRateLimit } from '../../src/selftest/selftest-attempts.ts';
import type { RunReport } from '../../src/report/model.ts';
import type { RateLimitSetting } from '../../src/contract/rate-limit.ts';
import { FAULTS } from '../../src/reference/faults.ts';
import { detection } from '../../src/selftest/fault-detection.ts';
import { detectionLine } from '../../src/cli/commands/selftest.ts';

type Check = { id: string; status: 'passed' | 'failed' | 'errored' | 'skipped'; reason?: string; rules?: string[] };

/** A report with these checks (the rest of a report is not read). */
const report = (...checks: Check[]) => ({ checks: checks.map((c) => ({ rules: [], ...c })) }) as unknown as RunReport;

const STRADDLE_MISSED = 'the straddle missed the 1.0 s after the opening call (the target answered too slowly for a 1.0 s window)';
const passed = report({ id: 'rate-limit/sliding', status: 'passed' }, { id: 'users/create', status: 'passed' });
const slidingUnjudged = report({ id: 'rate-limit/sliding', status: 'errored', reason: STRADDLE_MISSED }, { id: 'users/create', status: 'passed' });

const PER_SECOND: RateLimitSetting = { limit: 60, windowMs: 1000 };

/** A certification that answers these reports one after another, and keeps the burst limit of each call. */
function certifications<T>(...answers: T[]) {
  const limits: RateLimitSetting[] = [];
  return {
    certify: async (burstRateLimit: RateLimitSetting) => answers[Math.min(limits.push(burstRateLimit) - 1, answers.length - 1)]!,
    calls: () => limits.length,
    limits,
  };
}

describe('a clean certification once more when only its bursts went unjudged', () => {
  it('names the rate-limit checks that errored when nothing else failed or errored', () => {
    expect(burstsUnjudged([slidingUnjudged])).toEqual([`rate-limit/sliding errored: ${STRADDLE_MISSED}`]);
    const boundary = report({ id: 'rate-limit/boundary', status: 'errored', reason: 'the window\'s calls took 1.2 s' }, { id: 'rate-limit/reset', status: 'skipped', reason: 'the boundary burst reached no verdict' });
    expect(burstsUnjudged([passed, boundary])).toEqual(["rate-limit/boundary errored: the window's calls took 1.2 s"]);
  });

  it('names nothing when every check was judged, when a check failed, or when a check outside the rate-limit phase errored', () => {
    expect(burstsUnjudged([passed])).toEqual([]);
    expect(burstsUnjudged([report({ id: 'rate-limit/sliding', status: 'failed' })])).toEqual([]);
    expect(burstsUnjudged([slidingUnjudged, report({ id: 'users/create', status: 'failed' })])).toEqual([]);
    expect(burstsUnjudged([report({ id: 'rate-limit/sliding', status: 'errored', reason: 'x' }, { id: 'webhooks/notified', status: 'errored', reason: 'y' })])).toEqual([]);
  });

  it('certifies once, at the given burst limit, when the first certification judged every check', async () => {
    const made = certifications(passed, slidingUnjudged);
    expect(await onceMoreIfUnjudged(made.certify, (r) => burstsUnjudged([r]), PER_SECOND)).toEqual({ value: passed });
    expect(made.limits).toEqual([PER_SECOND]);
  });

  it('certifies once more, its bursts in a window four times as long, when the first left only rate-limit checks unjudged; the second stands, the first one\'s reasons are kept', async () => {
    const made = certifications(slidingUnjudged, passed);
    const second = { limit: 60, windowMs: 4000 };
    expect(await onceMoreIfUnjudged(made.certify, (r) => burstsUnjudged([r]), PER_SECOND)).toEqual({ value: passed, second: { firstUnjudged: [`rate-limit/sliding errored: ${STRADDLE_MISSED}`], burstRateLimit: second } });
    expect(made.limits).toEqual([PER_SECOND, second]);
  });

  it('stops at the second certification, whatever it found', async () => {
    const made = certifications(slidingUnjudged, slidingUnjudged, passed);
    const attempted = await onceMoreIfUnjudged(made.certify, (r) => burstsUnjudged([r]), PER_SECOND);
    expect(attempted.value).toBe(slidingUnjudged);
    expect(made.calls()).toBe(2);
  });

  it('never certifies a failure again', async () => {
    const failed = report({ id: 'rate-limit/boundary', status: 'failed' }, { id: 'rate-limit/sliding', status: 'errored', reason: STRADDLE_MISSED });
    const made = certifications(failed, passed);
    expect(await onceMoreIfUnjudged(made.certify, (r) => burstsUnjudged([r]), PER_SECOND)).toEqual({ value: failed });
    expect(made.calls()).toBe(1);
  });

  it('judges a sparse seed\'s rounds together: a round whose bursts went unjudged certifies the seed, every round, once more', async () => {
    const made = certifications([slidingUnjudged, passed], [passed, passed]);
    const attempted = await onceMoreIfUnjudged(made.certify, burstsUnjudged, PER_SECOND);
    expect(attempted.value).toEqual([passed, passed]);
    expect(attempted.second?.firstUnjudged).toHaveLength(1);
    expect(made.calls()).toBe(2);
  });

  it('widens the window at most to a minute, §8\'s own', () => {
    expect(secondBurstRateLimit({ limit: 60, windowMs: 3000 })).toEqual({ limit: 60, windowMs: 12_000 });
    expect(secondBurstRateLimit({ limit: 60, windowMs: 20_000 })).toEqual({ limit: 60, windowMs: 60_000 });
  });
});

describe('a burst fault once more when its rule went unjudged', () => {
  const skippedAfterBoundary = { id: 'rate-limit/sliding', status: 'skipped' as const, reason: 'the boundary burst reached no verdict', rules: ['RATE-LIMIT-SLIDING'] };
  const boundaryErrored = { id: 'rate-limit/boundary', status: 'errored' as const, reason: "the window's calls took 1.2 s, not less than the 1.0 s window", rules: ['RATE-LIMIT-CAP'] };

  it('when a check naming the rule errored', () => {
    expect(ruleUnjudged('RATE-LIMIT-SLIDING', report({ id: 'rate-limit/monitor', status: 'errored', reason: 'x', rules: ['RATE-LIMIT-SLIDING'] }))).toEqual(['rate-limit/monitor errored: x']);
  });

  it('when the boundary burst errored and left the rule\'s check skipped (rate-limit-clock-window went missed so under load)', () => {
    expect(ruleUnjudged('RATE-LIMIT-SLIDING', report(boundaryErrored, skippedAfterBoundary))).toEqual([`rate-limit/boundary errored: ${boundaryErrored.reason}`]);
  });

  it('not when every rate-limit check was judged, or only a check outside the phase errored', () => {
    expect(ruleUnjudged('RATE-LIMIT-SLIDING', report({ id: 'rate-limit/sliding', status: 'passed', rules: ['RATE-LIMIT-SLIDING'] }))).toEqual([]);
    expect(ruleUnjudged('RATE-LIMIT-SLIDING', report({ id: 'webhooks/notified', status: 'errored', reason: 'y', rules: ['WH-NOTIFICATION-ARRIVES'] }))).toEqual([]);
  });

  it('goes through the same mechanism as a clean certification: the second, in the longer window, stands and carries the window it used and the first\'s reasons', async () => {
    const unjudgedFirst = report(boundaryErrored, skippedAfterBoundary);
    const caught = report({ id: 'rate-limit/sliding', status: 'failed', rules: ['RATE-LIMIT-SLIDING'] });
    const made = certifications(unjudgedFirst, caught);
    const attempted = await onceMoreIfUnjudged(made.certify, (r) => ruleUnjudged('RATE-LIMIT-SLIDING', r), { limit: 60, windowMs: 3000 });
    expect(attempted).toEqual({ value: caught, second: { firstUnjudged: [`rate-limit/boundary errored: ${boundaryErrored.reason}`], burstRateLimit: { limit: 60, windowMs: 12_000 } } });
    expect(made.limits).toEqual([{ limit: 60, windowMs: 3000 }, { limit: 60, windowMs: 12_000 }]);
  });
});

describe('a fault certified twice says so, with the window its second certification used', () => {
  const fault = FAULTS.find((f) => f.name === 'rate-limit-clock-window')!;
  const caught = { checks: [{ id: 'rate-limit/sliding', status: 'failed', rules: ['RATE-LIMIT-SLIDING'], findings: [{ ruleId: 'RATE-LIMIT-SLIDING' }], source: { kind: 'scenario' } }] } as unknown as RunReport;
  const second = { firstUnjudged: ['rate-limit/boundary errored: slow'], burstRateLimit: { limit: 60, windowMs: 12_000 } };

  it('carries the second attempt in the detection, and counts two certifications', () => {
    expect(detection(fault, 'standard', caught)).toMatchObject({ verdict: 'caught', attempts: 1 });
    expect(detection(fault, 'standard', caught)).not.toHaveProperty('second');
    expect(detection(fault, 'standard', caught, second)).toMatchObject({ verdict: 'caught', attempts: 2, second });
  });

  it('prints the window the detection carries, not one worked out again', () => {
    expect(detectionLine(detection(fault, 'standard', caught))).not.toContain('certified twice');
    expect(detectionLine(detection(fault, 'standard', caught, second))).toMatch(/caught .*rate-limit-clock-window .*\(certified twice: the first left RATE-LIMIT-SLIDING unjudged; the second's bursts at 60 per 12(\.0)? ?s\)$/);
  });
});
