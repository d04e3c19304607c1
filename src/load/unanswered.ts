/**
 * The calls of a load run that were sent and never answered, by what became of them. `total` is what
 * the verdict judges: timed out, lost with their connection, or held until the run stopped. Calls a
 * timed run cut off while the target was still answering are counted apart and not judged: autocannon
 * closes every connection when the time is up, each with its call in flight.
 */
export interface UnansweredCalls {
  /** timedOut + lostWithConnection + heldToEnd. */
  readonly total: number;
  /** No complete answer within the timeout (autocannon's `timeouts`). */
  readonly timedOut: number;
  /** In flight on a connection that failed (a reset, a refused reconnect): at most one a transport error. */
  readonly lostWithConnection: number;
  /** Still waiting when the run stopped, the target having answered nothing for longer than it ever took to answer. */
  readonly heldToEnd: number;
  /** In flight when a timed run stopped, the target still answering: cut off by the run, not judged. */
  readonly cutOffAtEnd: number;
  /** With calls in flight at the stop: how long before it the target last answered (ms; from the first call when it never did). */
  readonly silentBeforeStopMs: number | null;
}

/** What the accounting is drawn from. */
export interface UnansweredInput {
  /** Sent and not answered, every kind (runAutocannon's `unanswered`). */
  readonly unanswered: number;
  /** autocannon's `errors` (transport errors, timeouts included) and `timeouts`. */
  readonly errors: number;
  readonly timeouts: number;
  /** Whether the run was bounded in time (and stopped at that time, not at the hard cap). */
  readonly timedStop: boolean;
  readonly connections: number;
  /** Whether the load was paced (`--rate`): autocannon then sends each second's calls at its start, so a connection may idle up to a second. */
  readonly paced: boolean;
  readonly firstSentAtMs: number | null;
  readonly lastReceivedAtMs: number | null;
  /** When autocannon stopped and closed its connections (its `finish`). */
  readonly stoppedAtMs: number;
  /**
   * When a timed run was due to stop (its start plus its duration). A stop later than that is the
   * harness's own delay (a busy event loop fires the stop late, and reads the answers that arrived
   * meanwhile late too): that part of the silence is not the target's.
   */
  readonly dueStopAtMs?: number;
  /** The longest any answer of the run took, ms. */
  readonly slowestAnswerMs: number;
}

/** Jitter of the timers that stop the run: a silence this short proves nothing. */
const TIMER_SLACK_MS = 100;

/**
 * Splits the unanswered calls. Timeouts and transport errors each lose at most one call (one request
 * at a time on a connection); the rest were in flight at the stop. Each of those was sent no earlier
 * than its connection's last answer (plus up to a second of pacing), so when the target had been
 * silent for longer than its slowest answer, every one of them waited longer than any answered call
 * did: held. Otherwise they may simply not have had their time, and a timed run cut them off. The
 * time a timed run's stop came late (UnansweredInput.dueStopAtMs) is not counted as silence.
 */
export function accountUnanswered(input: UnansweredInput): UnansweredCalls {
  const timedOut = Math.min(input.timeouts, input.unanswered);
  const lostWithConnection = Math.min(Math.max(0, input.errors - input.timeouts), input.unanswered - timedOut);
  const inFlight = input.unanswered - timedOut - lostWithConnection;
  const since = input.lastReceivedAtMs ?? input.firstSentAtMs;
  const silentBeforeStopMs = inFlight > 0 && since !== null ? Math.max(0, input.stoppedAtMs - since) : null;
  const idle = input.paced ? 1000 : 0;
  const late = input.dueStopAtMs === undefined ? 0 : Math.max(0, input.stoppedAtMs - input.dueStopAtMs);
  const stillAnswering =
    input.timedStop && input.lastReceivedAtMs !== null && silentBeforeStopMs !== null && silentBeforeStopMs - idle - late <= Math.max(input.slowestAnswerMs, TIMER_SLACK_MS);
  const cutOffAtEnd = stillAnswering ? Math.min(inFlight, input.connections) : 0;
  const heldToEnd = inFlight - cutOffAtEnd;
  return { total: timedOut + lostWithConnection + heldToEnd, timedOut, lostWithConnection, heldToEnd, cutOffAtEnd, silentBeforeStopMs };
}
