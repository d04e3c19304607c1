import { RunStopped } from '../errors.ts';
import { formatDuration } from '../duration.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Interruption } from './interruption.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';

/** Exchanges in a row without an answer after which a run stops sending: the target stopped answering. */
export const MAX_CONSECUTIVE_TRANSPORT_FAILURES = 5;

/**
 * The most a run waits, in all, on exchanges that stalled (a deadline passed: connect, headers, body,
 * the whole exchange, a burst's call) before it stops: the target stalls. Twice the exchange
 * deadline the user gave (`timeouts.exchange`): a total, not a count in a row, so a target that
 * stalls every other exchange stops too, and a user who raised the deadline for a slow server
 * raised the patience with it. With the default deadline (30 s) that is one minute, two stalled
 * exchanges, so a run against any stalling target ends within two minutes; an honest answer in
 * 10 s never stalls.
 */
export function stallBudgetMs(exchangeDeadlineMs: number): number {
  return 2 * exchangeDeadlineMs;
}

const STALLS: ReadonlySet<string> = new Set(['CONNECT_TIMEOUT', 'HEADERS_TIMEOUT', 'BODY_TIMEOUT', 'EXCHANGE_TIMEOUT']);

/** The least a run is given by default, whatever its plan's ETA. */
const MIN_DEFAULT_MAX_TIME_MS = 10 * 60_000;

/** The default `--max-time` of a run whose plan takes `etaMs` at the target's limit: three times that, at least ten minutes. */
export function defaultMaxTimeMs(etaMs: number): number {
  return Math.max(MIN_DEFAULT_MAX_TIME_MS, Math.ceil(3 * etaMs));
}

export interface RunGuardOptions {
  /** Sends one request (the paced client). */
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  /** The run's time limit, ms from `startedAtMs`. */
  readonly maxTimeMs: number;
  readonly startedAtMs: number;
  /** Where the limit came from, for the reason (e.g. "--max-time 5m"). */
  readonly maxTimeSource: string;
  /** `--max-requests`: no send goes past this many requests of the run (`made`). */
  readonly maxRequests?: number;
  /** Requests the run made so far, bursts included. */
  readonly made?: () => number;
  /** The time limits are measured on (default SYSTEM_CLOCK); `startedAtMs` is on it too. */
  readonly clock?: Clock;
  /** The run's time limit is its budget (`--within`): what it cuts is not run, not errored. */
  readonly timeIsBudget?: boolean;
  /** How long a send would wait for its turn now (the pacer's estimate): a send whose turn comes after the time limit is not made. */
  readonly waitMs?: () => number;
  /** The longest `waitMs` can be (the pacer's span): farther than this from the limit, it is not asked. */
  readonly waitBoundMs?: number;
  /**
   * The target's window (ms): a run whose calls are answered only 429 for longer than two of them
   * stops (the target serves nothing). Calls for which a 429 is what is asked (`provoking()`: the
   * rate-limit phase) do not count.
   */
  readonly refusalWindowMs?: number;
  readonly provoking?: () => boolean;
  /** Signals that interrupt the run: after the first, nothing is sent. */
  readonly interruption?: Interruption;
  /** The most the run waits on stalled exchanges in all, ms (`stallBudgetMs` of the exchange deadline). */
  readonly stallBudgetMs: number;
}

/**
 * Keeps a run bounded, whatever the target does: past the run's time limit, or after
 * MAX_CONSECUTIVE_TRANSPORT_FAILURES exchanges in a row that got no complete answer (timeouts,
 * resets, refused connections), no request is sent any more: `send` throws RunStopped, so the check
 * in progress and every later one are reported `errored` with the reason and the reports are still
 * written. A dead target costs a few timeouts, not one per check.
 */
export class RunGuard {
  readonly #options: RunGuardOptions;
  readonly #now: () => number;
  #failuresInARow = 0;
  /** Time spent on exchanges that stalled, ms, and how many. */
  #stalled = { ms: 0, count: 0 };
  /** Whether any exchange got a response: a TLS failure after one means the target's certificate changed mid-run. */
  #answered = false;
  /** When the first of the 429s in a row was asked for (the send that got it started), and how many. */
  #refused: { since: number; count: number } | null = null;
  #stopped: RunStopped | null = null;

  constructor(options: RunGuardOptions) {
    this.#options = options;
    this.#now = (options.clock ?? SYSTEM_CLOCK).now;
  }

  /** Why the run stopped (a signal, the time limit passed, the target stopped answering), or null while it goes on. */
  get stopped(): string | null {
    return this.stopError()?.reason ?? null;
  }

  /** The RunStopped a send would throw now, or null while the run goes on. A signal wins over every other cause. */
  stopError(): RunStopped | null {
    const interrupted = this.#options.interruption?.stopped();
    if (interrupted) return interrupted;
    if (this.#stopped === null && this.#now() - this.#options.startedAtMs > this.#options.maxTimeMs) this.#stopForTime();
    return this.#stopped;
  }

  #stopForTime(): void {
    this.#stopped = this.#options.timeIsBudget
      ? new RunStopped(`budget (--within ${formatDuration(this.#options.maxTimeMs)}) spent`, 'budget')
      : new RunStopped(`the run's time limit of ${formatDuration(this.#options.maxTimeMs)} (${this.#options.maxTimeSource}) passed, so no more requests were sent and the checks from here on errored`, 'time-limit');
  }

  /**
   * @throws RunStopped once the run has stopped, or when `requests` more would take the run past
   *   `maxRequests` (the budget is then spent: nothing more is sent).
   */
  assertRunning(requests = 1): void {
    const { maxRequests, made } = this.#options;
    // A send whose turn in the pacer comes only after the time limit would be made past it: the limit is reached now.
    // Asked only near the limit: the pacer's estimate walks its window, and most sends are far from it.
    const leftMs = this.#options.startedAtMs + this.#options.maxTimeMs - this.#now();
    if (this.stopped === null && this.#options.waitMs && leftMs < (this.#options.waitBoundMs ?? Infinity) && this.#options.waitMs() > leftMs) this.#stopForTime();
    if (this.stopped === null && maxRequests !== undefined && made !== undefined && made() + requests > maxRequests) {
      this.#stopped = new RunStopped(`budget (--max-requests ${maxRequests}) spent: ${made()} requests made`, 'budget');
    }
    const stop = this.stopError();
    if (stop !== null) throw stop;
  }

  /** Sends one request unless the run has stopped (or its request budget is spent); counts answers and failures in a row. */
  async send(request: TargetRequest): Promise<Exchange> {
    this.assertRunning();
    const startedAt = this.#now();
    const exchange = await this.#options.send(request);
    this.#countRefusal(exchange, startedAt);
    if (exchange.error && STALLS.has(exchange.error.code)) this.noteStall(exchange.durationMs, `exchange ${exchange.id} (${exchange.error.code})`);
    if (exchange.error?.code === 'TLS_ERROR' && this.#answered) this.stopForTarget(`the target's certificate no longer verified at exchange ${exchange.id}: ${exchange.error.message}`);
    if (exchange.response) this.#answered = true;
    const unanswered = exchange.error !== undefined && exchange.error.code !== 'RESPONSE_TOO_LARGE';
    this.#failuresInARow = unanswered ? this.#failuresInARow + 1 : 0;
    if (this.#failuresInARow >= MAX_CONSECUTIVE_TRANSPORT_FAILURES && this.#stopped === null) {
      this.#stopped = new RunStopped(
        `the target stopped answering after exchange ${exchange.id - MAX_CONSECUTIVE_TRANSPORT_FAILURES}: ${MAX_CONSECUTIVE_TRANSPORT_FAILURES} exchanges in a row ` +
          `got no complete answer (the last: ${exchange.error!.code}), so no more requests were sent and the checks from here on errored`,
      );
    }
    return exchange;
  }

  /**
   * Counts `ms` spent waiting on a stalled exchange (or a burst's stalled call) toward the stall budget;
   * past it the run stops: nothing more is sent, the checks from here on are errored with the reason.
   */
  noteStall(ms: number, what: string): void {
    this.#stalled = { ms: this.#stalled.ms + ms, count: this.#stalled.count + 1 };
    const budgetMs = this.#options.stallBudgetMs;
    if (this.#stalled.ms < budgetMs || this.#stopped !== null) return;
    this.#stopped = new RunStopped(
      `the target stalled: ${this.#stalled.count} exchanges waited ${formatDuration(this.#stalled.ms)} in all without a complete answer, past the run's ${formatDuration(budgetMs)} for stalls, twice the exchange deadline ` +
        `(the last: ${what}), so no more requests were sent and the checks from here on errored`,
    );
  }

  /** Stops the run for what the target did (a certificate that changed mid-run); returns the RunStopped a send now throws. */
  stopForTarget(reason: string): RunStopped {
    this.#stopped ??= new RunStopped(`${reason}, so no more requests were sent and the checks from here on errored`);
    return this.#stopped;
  }

  /** Time left before the run's time limit, ms (0 once it passed). */
  timeLeftMs(): number {
    return Math.max(0, this.#options.startedAtMs + this.#options.maxTimeMs - this.#now());
  }

  /** 429 after 429 for more than two windows, outside the rate-limit phase: the target serves nothing, and the run stops. */
  #countRefusal(exchange: Exchange, startedAt: number): void {
    const windowMs = this.#options.refusalWindowMs;
    if (windowMs === undefined || this.#options.provoking?.()) return;
    if (exchange.response?.status !== 429) {
      this.#refused = null;
      return;
    }
    this.#refused = this.#refused === null ? { since: startedAt, count: 1 } : { since: this.#refused.since, count: this.#refused.count + 1 };
    const spanMs = this.#now() - this.#refused.since;
    if (spanMs > 2 * windowMs && this.#stopped === null) {
      this.#stopped = new RunStopped(
        `the target answered 429 to every call for ${formatDuration(spanMs)}, more than two windows of ${formatDuration(windowMs)} (${this.#refused.count} calls in a row): it served nothing, so no more requests were sent and the checks from here on errored`,
      );
    }
  }
}
