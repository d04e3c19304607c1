import { describe, expect, it } from 'vitest';
import { RunStopped } from '../../src/errors.ts';
import { MAX_CONSECUTIVE_TRANSPORT_FAILURES, RunGuard, defaultMaxTimeMs, stallBudgetMs } from '../../src/execute/run-guard.ts';
import { defaultProfile } from '../../src/profile/profile.ts';
import type { Exchange, TransportErrorCode } from '../../src/client/exchange.ts';

/** A send that answers (or fails with `code`) per the script, numbering exchanges from 1. */
function scripted(script: ReadonlyArray<TransportErrorCode | number>, durationMs = 1) {
  let id = 0;
  const sent: number[] = [];
  const send = async (): Promise<Exchange> => {
    const step = script[id] ?? 200;
    id++;
    sent.push(id);
    const base = { id, startedAt: '', sentAtMs: 0, durationMs, request: { method: 'GET' as const, url: 'https://t.test/api/public/users', headers: {} } };
    return typeof step === 'number'
      ? { ...base, response: { status: step, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false } }
      : { ...base, error: { code: step, message: step } };
  };
  return { send, sent };
}

const GET = { method: 'GET', path: '/users' } as const;

/** The default profile's exchange deadline (30 s) and the stall budget it gives. */
const DEFAULT_EXCHANGE_MS = defaultProfile().timeouts.exchange;
const STALLS = { stallBudgetMs: stallBudgetMs(DEFAULT_EXCHANGE_MS) };

describe('RunGuard: a run always ends', () => {
  it('a target that stalls every other exchange spends the stall budget, not N in a row: the run stops at 60 s of stalls in all', async () => {
    const target = scripted(['HEADERS_TIMEOUT', 200, 'BODY_TIMEOUT', 200, 'EXCHANGE_TIMEOUT', 200, 200], 20_000);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 600_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    for (let i = 0; i < 5; i++) await guard.send(GET);
    expect(guard.stopped).toMatch(/^the target stalled: 3 exchanges waited 1 min 00 s in all without a complete answer, past the run's 1 min 00 s for stalls, twice the exchange deadline \(the last: exchange 5 \(EXCHANGE_TIMEOUT\)\)/);
    await expect(guard.send(GET)).rejects.toThrow(RunStopped);
    expect(target.sent).toHaveLength(5);
  });

  it('the stall budget is twice the exchange deadline: with the defaults a stalling run ends within two minutes, and a raised deadline raises the patience', async () => {
    expect(DEFAULT_EXCHANGE_MS).toBe(30_000);
    // The budget, then at most one more stalled exchange that began just before it was reached.
    expect(stallBudgetMs(DEFAULT_EXCHANGE_MS) + DEFAULT_EXCHANGE_MS).toBeLessThanOrEqual(120_000);
    const patient = new RunGuard({ send: scripted(['EXCHANGE_TIMEOUT', 200, 'EXCHANGE_TIMEOUT', 200], 120_000).send, maxTimeMs: 3_600_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', stallBudgetMs: stallBudgetMs(120_000) });
    await patient.send(GET);
    expect(patient.stopped).toBeNull(); // one stall of a 2 min deadline is inside a 4 min budget, not past a fixed minute
    await patient.send(GET);
    await patient.send(GET);
    expect(patient.stopped).toMatch(/waited 4 min 00 s in all without a complete answer, past the run's 4 min 00 s for stalls/);
  });

  it("a reset or a refused connection is not a stall (it costs no wait), and a burst's stall counts like an exchange's", async () => {
    const target = scripted(['CONNECTION_RESET', 200, 'CONNECTION_REFUSED', 200, 'EXCHANGE_TIMEOUT'], 30_000);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 600_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    for (let i = 0; i < 5; i++) await guard.send(GET);
    expect(guard.stopped).toBeNull();
    guard.noteStall(30_000, "a burst's call (no complete answer within 30 s)");
    expect(guard.stopped).toMatch(/^the target stalled: 2 exchanges waited 1 min 00 s .*the last: a burst's call/);
  });

  it('a TLS failure after the target answered (its certificate changed mid-run) stops the run at once; before any answer it is one more failure', async () => {
    const early = new RunGuard({ send: scripted(['TLS_ERROR', 200]).send, maxTimeMs: 60_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    await early.send(GET);
    expect(early.stopped).toBeNull();
    const target = scripted([200, 'TLS_ERROR', 200]);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 60_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    await guard.send(GET);
    await guard.send(GET);
    expect(guard.stopped).toMatch(/^the target's certificate no longer verified at exchange 2: TLS_ERROR, so no more requests were sent/);
    await expect(guard.send(GET)).rejects.toThrow(RunStopped);
  });

  it(`stops sending after ${MAX_CONSECUTIVE_TRANSPORT_FAILURES} exchanges in a row without an answer, naming the last answered exchange`, async () => {
    const target = scripted([200, 200, 'CONNECTION_REFUSED', 'HEADERS_TIMEOUT', 'CONNECTION_RESET', 'EXCHANGE_TIMEOUT', 'CONNECTION_REFUSED', 200]);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 60_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    for (let i = 0; i < 7; i++) await guard.send(GET);
    expect(guard.stopped).toMatch(/^the target stopped answering after exchange 2: 5 exchanges in a row got no complete answer \(the last: CONNECTION_REFUSED\)/);
    await expect(guard.send(GET)).rejects.toThrow(RunStopped);
    expect(target.sent).toHaveLength(7);
  });

  it('never sends past --max-requests: the send or burst that would go over stops the run instead', async () => {
    const target = scripted([]);
    let made = 0;
    const guard = new RunGuard({
      send: async () => {
        made++;
        return target.send();
      },
      maxTimeMs: 60_000,
      startedAtMs: Date.now(),
      maxTimeSource: '--max-time',
      ...STALLS,
      maxRequests: 5,
      made: () => made,
    });
    for (let i = 0; i < 3; i++) await guard.send(GET);
    expect(() => guard.assertRunning(3)).toThrow(RunStopped); // a burst of 3 would make 6
    expect(guard.stopped).toBe('budget (--max-requests 5) spent: 3 requests made');
    await expect(guard.send(GET)).rejects.toThrow(RunStopped);
    expect(made).toBe(3);
  });

  it('forgives failures that an answer interrupts, and an oversize body (the target answered)', async () => {
    const target = scripted(['CONNECTION_RESET', 'CONNECTION_RESET', 'CONNECTION_RESET', 'CONNECTION_RESET', 500, 'RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE']);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 60_000, startedAtMs: Date.now(), maxTimeSource: '--max-time', ...STALLS });
    for (let i = 0; i < 10; i++) await guard.send(GET);
    expect(guard.stopped).toBeNull();
  });

  it('stops once the time limit has passed, before sending, saying which limit', async () => {
    let now = 1_000;
    const target = scripted([]);
    const guard = new RunGuard({ send: target.send, maxTimeMs: 5_000, startedAtMs: 1_000, maxTimeSource: '--max-time', ...STALLS, clock: { now: () => now, sleep: async () => {} } });
    await guard.send(GET);
    now = 6_001;
    await expect(guard.send(GET)).rejects.toThrow(/^the run's time limit of 5\.0 s \(--max-time\) passed/);
    expect(() => guard.assertRunning()).toThrow(RunStopped);
    expect(target.sent).toHaveLength(1);
  });

  it('defaults the limit to three times the ETA, at least ten minutes', () => {
    expect(defaultMaxTimeMs(25_000)).toBe(600_000);
    expect(defaultMaxTimeMs(13 * 60_000)).toBe(39 * 60_000);
  });
});
