import type { Clock } from '../clock.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { LoadRequest } from '../load/autocannon-run.ts';
import type { BurstOutcome } from './boundary.ts';
import type { RateLimitCheckId } from './rate-limit-checks.ts';

/**
 * The paced checks' traffic as the phase steers it (the run's Pacer, and its transport's view of the
 * checks' calls): the phase runs beside the paced checks, and their calls fill the windows the
 * contract needs (docs/rate-limit-and-load.md, "The phase rides on the checks' calls").
 */
export interface PacedTraffic {
  /** Closes the gate: no paced call is let go until `admit`. */
  hold(): void;
  /** Lets `count` more paced calls go (then the gate closes by itself), or all from now on. */
  admit(count?: number): void;
  /** Resolves once the gate is closed and no paced call is in flight. */
  untilIdle(): Promise<void>;
  /** Resolves once no call counts any more (a window and the guard since the last answer). */
  untilQuiet(): Promise<void>;
  /** Resolves when a paced call finds the window full (the window's calls are all out). */
  untilBlocked(): Promise<void>;
  /** Starts keeping the paced checks' exchanges; `stop` ends it and returns them. */
  watch(): { stop(): readonly Exchange[] };
  /** Paced calls the pacer lets count at once (limit less its reserve). */
  readonly allowed: number;
}

/** What the phase needs from the run. */
export interface RateLimitPhaseDeps {
  readonly profile: Profile;
  /** One call through the harness's client, kept under `segment` (not paced inside the phase). */
  readonly call: (request: TargetRequest, segment: string) => Promise<Exchange>;
  /**
   * `amount` calls at once over the profile's connections (autocannon), kept under `segment`;
   * `wholeBodies` keeps each body up to the client's 1 MiB (a page of 100 records), else BURST_BODY_BYTES.
   */
  readonly burst: (requests: readonly LoadRequest[], amount: number, segment: string, wholeBodies?: boolean) => Promise<BurstOutcome>;
  /** The pacer's margin on top of the window, ms: a "quiet window" is window + guard without calls. */
  readonly guardMs: number;
  /**
   * Instead of a quiet window before the page sizes, a fresh limiter: the embedded server's limiter
   * is restarted (CertifyOptions.quickPacing), which empties its window at once. Absent: a target's
   * window is waited out.
   */
  readonly restartLimiter?: () => Promise<void>;
  readonly replay: (checkId: string) => string;
  /** Which checks to run (by ID or rule, as --only selects). */
  readonly selected: (checkId: RateLimitCheckId) => boolean;
  /**
   * The paced checks' traffic. With `interleaved`, paced checks run beside the phase: their calls
   * open the boundary's window and fill the straddle's. Absent: the caller started the phase after
   * a quiet window and no paced call goes while it runs (a test's fake target).
   */
  readonly traffic?: PacedTraffic;
  readonly interleaved?: boolean;
  /** The time the phase waits on (default SYSTEM_CLOCK; the exchanges' `sentAtMs` must be on it too). */
  readonly clock?: Clock;
}
