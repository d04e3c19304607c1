import { describe, expect, it } from 'vitest';
import { accountUnanswered, type UnansweredInput } from '../../src/load/unanswered.ts';

const T0 = 1_700_000_000_000;
/** A 10-connection run timed at 2 s, unpaced, answering up to its stop, slowest answer 40 ms. */
const timedRun: UnansweredInput = {
  unanswered: 10,
  errors: 0,
  timeouts: 0,
  timedStop: true,
  connections: 10,
  paced: false,
  firstSentAtMs: T0,
  lastReceivedAtMs: T0 + 1998,
  stoppedAtMs: T0 + 2000,
  slowestAnswerMs: 40,
};

describe('accountUnanswered', () => {
  it('does not judge the one call a connection has in flight when a timed run stops while the target answers', () => {
    expect(accountUnanswered(timedRun)).toEqual({ total: 0, timedOut: 0, lostWithConnection: 0, heldToEnd: 0, cutOffAtEnd: 10, silentBeforeStopMs: 2 });
  });

  it('counts calls in flight as held when the target had answered nothing for longer than its slowest answer', () => {
    // The first call answered in 17 ms, the other 8 connections never: the 8 of 9.
    const held = accountUnanswered({ ...timedRun, unanswered: 9, connections: 9, lastReceivedAtMs: T0 + 17, slowestAnswerMs: 17 });
    expect(held).toMatchObject({ total: 9, heldToEnd: 9, cutOffAtEnd: 0, silentBeforeStopMs: 1983 });
  });

  it('allows a paced run a second of idling between a connection\'s calls before calling them held', () => {
    const paced = { ...timedRun, paced: true, unanswered: 2, lastReceivedAtMs: T0 + 1100 };
    expect(accountUnanswered(paced)).toMatchObject({ total: 0, cutOffAtEnd: 2 });
    expect(accountUnanswered({ ...paced, paced: false })).toMatchObject({ total: 2, heldToEnd: 2 });
  });

  it('does not count as silence the time a timed run stopped late (a busy machine fires the stop late), only what came before it was due', () => {
    // Paced, the last answer 1.2 s before the stop: held when the stop was on time; cut off when it came 300 ms late.
    const paced = { ...timedRun, paced: true, unanswered: 2, lastReceivedAtMs: T0 + 800, dueStopAtMs: T0 + 2000 };
    expect(accountUnanswered(paced)).toMatchObject({ total: 2, heldToEnd: 2, cutOffAtEnd: 0 });
    expect(accountUnanswered({ ...paced, stoppedAtMs: T0 + 2300, lastReceivedAtMs: T0 + 1100 })).toMatchObject({ total: 0, cutOffAtEnd: 2, silentBeforeStopMs: 1200 });
    // A target silent since long before the due stop is held however late the stop came.
    expect(accountUnanswered({ ...paced, stoppedAtMs: T0 + 2300, lastReceivedAtMs: T0 + 300 })).toMatchObject({ total: 2, heldToEnd: 2 });
  });

  it('judges every call in flight at the stop of an amount run, of a run the hard cap stopped, and of a run nothing answered', () => {
    expect(accountUnanswered({ ...timedRun, timedStop: false })).toMatchObject({ total: 10, heldToEnd: 10, cutOffAtEnd: 0 });
    expect(accountUnanswered({ ...timedRun, lastReceivedAtMs: null })).toMatchObject({ total: 10, heldToEnd: 10, silentBeforeStopMs: 2000 });
  });

  it('never cuts off more than one call a connection', () => {
    expect(accountUnanswered({ ...timedRun, unanswered: 13 })).toMatchObject({ total: 3, heldToEnd: 3, cutOffAtEnd: 10 });
  });

  it('counts timeouts and calls lost with their connection apart from those in flight at the stop', () => {
    const troubled = accountUnanswered({ ...timedRun, unanswered: 14, errors: 5, timeouts: 3 });
    expect(troubled).toEqual({ total: 5, timedOut: 3, lostWithConnection: 2, heldToEnd: 0, cutOffAtEnd: 9, silentBeforeStopMs: 2 });
    // Transport errors beyond the calls left unanswered lost none (a refused reconnect, say).
    expect(accountUnanswered({ ...timedRun, unanswered: 1, errors: 4, timeouts: 0 })).toMatchObject({ total: 1, lostWithConnection: 1, cutOffAtEnd: 0 });
  });
});
