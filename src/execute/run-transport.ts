import { BURST_BODY_BYTES, type BurstOutcome } from '../ratelimit/boundary.ts';
import { RateMonitor } from '../ratelimit/monitor.ts';
import type { AutocannonRunOptions, LoadRequest } from '../load/autocannon-run.ts';
import { DEFAULT_ABORT_RESPONSE_BYTES, DEFAULT_MAX_RESPONSE_BYTES, TargetClient, type RequestAuth, type TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Pacer } from '../client/pacer.ts';
import { clientTimeouts, type Profile } from '../profile/profile.ts';
import type { Progress } from '../report/progress.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { ClockcheckError, type RunStopped } from '../errors.ts';
import { toolVersion } from '../version.ts';
import { retryAfterMs } from '../client/retry-after.ts';
import { retainExchange } from '../client/retained.ts';
import { LARGE_BODIES } from '../client/large-body-collector.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';

/**
 * The part of the rate-limit phase a call belongs to, in the call's async context (absent: a paced
 * check's call), and the transport cleaning up after a signal (its calls are not halted). One store
 * each for every transport: on Node 20 every AsyncLocalStorage that ever ran stays in the list each
 * new async resource is propagated through, so a store per run would slow a long process (the
 * selftest's hundreds of runs) with each run.
 */
const SEGMENT = new AsyncLocalStorage<{ readonly transport: RunTransport; readonly segment: string }>();
const CLEANING = new AsyncLocalStorage<RunTransport>();

export interface RunTransportOptions {
  readonly origin: string;
  readonly profile: Profile;
  readonly token: string;
  /** Other secrets redacted like the token (the webhook subscription's secret). */
  readonly secrets?: readonly string[];
  /** A second company's token (the profile's `second_company`), for the isolation checks' requests. */
  readonly secondToken?: string | undefined;
  readonly caPem?: string | undefined;
  readonly insecure: boolean;
  readonly allowPlainHttp: boolean;
  readonly pacer: Pacer;
  readonly progress: Progress | null;
  /** Called with every exchange, single or burst, already redacted. */
  readonly onExchange?: ((exchange: Exchange) => void) | undefined;
  /**
   * Asked when the pacer lets a call go, just before it is sent: a RunStopped (a signal came, the
   * run's time or budget is spent while the call waited for its turn) is thrown instead of sending.
   * Calls made through `sendCleanup` are not asked.
   */
  readonly halt?: () => RunStopped | null;
  /** Aborts a burst under way (a signal came). */
  readonly abortSignal?: AbortSignal;
  /** Time left before the run's time limit, ms: a burst is cut there. */
  readonly timeLeftMs?: () => number;
  /** A burst's stalled call: the time it cost, counted toward the run's stall budget (RunGuard.noteStall). */
  readonly onStall?: (ms: number, what: string) => void;
  /** A burst's connection failed TLS (the certificate changed mid-run): the RunStopped to throw. */
  readonly onCertificateChange?: (reason: string) => RunStopped;
  /** The time a 429's resend waits on (default SYSTEM_CLOCK). */
  readonly clock?: Clock;
}

/**
 * Everything a run sends goes through here: single calls through the paced TargetClient, bursts
 * through autocannon with the same trust, token form and redaction. Every exchange is counted,
 * given to the run-wide RateMonitor with the part of the run that sent it, ticked on the progress
 * line and handed to `onExchange`.
 */
export class RunTransport {
  readonly client: TargetClient;
  readonly monitor = new RateMonitor();
  readonly #options: RunTransportOptions;
  #made = 0;

  /** Who else sees each exchange with its part (the rate-limit phase, counting the paced checks' calls in its windows). */
  readonly #taps = new Set<(exchange: Exchange, segment: string) => void>();
  /** Why bursts are no longer sent: an earlier burst stalled (one stall is the verdict; each later burst would wait as long). */
  #burstsStalled: string | null = null;


  /** The second company's own pacer, where its token has a window of its own (per-token); null: it is paced in the run's. */
  readonly #secondPacer: Pacer | null;

  constructor(options: RunTransportOptions) {
    this.#options = options;
    this.#secondPacer = options.secondToken !== undefined && options.profile.second_company?.rate_limit === 'per-token' ? options.pacer.twin() : null;
    const { profile } = options;
    this.client = new TargetClient({
      origin: options.origin,
      apiPrefix: profile.api_prefix,
      token: options.token,
      ...(options.secrets ? { secrets: options.secrets } : {}),
      ...(options.secondToken === undefined ? {} : { secondToken: options.secondToken }),
      tls: this.#tls(),
      allowPlainHttp: options.allowPlainHttp,
      timeouts: clientTimeouts(profile),
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      userAgent: `clockcheck/${toolVersion()}`,
      pacer: { acquire: (auth) => this.#acquire(auth) },
      onExchange: (exchange) => this.#seen(exchange, this.#segmentNow() ?? 'paced'),
    });
  }

  /** Whether the call under way belongs to the rate-limit phase, where a 429 is what is asked. */
  get provoking(): boolean {
    return this.#segmentNow() !== undefined;
  }

  /** Calls `listener` with every exchange from now on and the part of the run it belongs to ('paced' for the checks' own); returns the way to stop. */
  tap(listener: (exchange: Exchange, segment: string) => void): () => void {
    this.#taps.add(listener);
    return () => void this.#taps.delete(listener);
  }

  /** Requests sent so far, bursts included. */
  get made(): number {
    return this.#made;
  }

  /**
   * One paced call. A 429 outside the rate-limit phase (the pacing or another client of the same
   * token filled the target's window) is made harmless: the run waits for the target's Retry-After
   * (or one window, and at most two), sends the call once more, and the check sees that answer. The
   * 429 stays in the monitor as unintended and is listed in its `resent`; a second 429 stands.
   */
  async send(request: TargetRequest): Promise<Exchange> {
    const first = await this.client.send(request);
    if (this.provoking || first.response?.status !== 429) return first;
    const windowMs = this.#options.profile.rate_limit.window;
    const clock = this.#options.clock ?? SYSTEM_CLOCK;
    const waitMs = Math.min(retryAfterMs(first.response.headers['retry-after'], clock.now()) ?? windowMs, 2 * windowMs) + this.#options.pacer.spanMs - windowMs;
    this.monitor.noteResent({ exchangeId: first.id, waitMs });
    await clock.sleep(waitMs);
    return this.client.send(request);
  }

  /**
   * One call of the cleanup after a signal: paced, recorded, and sent although the run was halted.
   * The pacer's gate opens for it (a rate-limit phase cut short by the signal may have left it closed).
   */
  sendCleanup(request: TargetRequest): Promise<Exchange> {
    this.#options.pacer.admit();
    return CLEANING.run(this, () => this.client.send(request));
  }

  /** One call through the client, recorded under `segment` (a part of the rate-limit phase). */
  call(send: (request: TargetRequest) => Promise<Exchange>, request: TargetRequest, segment: string): Promise<Exchange> {
    return SEGMENT.run({ transport: this, segment }, () => send(request));
  }

  /**
   * `amount` calls at once through autocannon, recorded like the client's own exchanges under
   * `segment`. Each keeps BURST_BODY_BYTES of body (a burst's calls are counted and their statuses judged), or
   * with `wholeBodies` as much as the client keeps, for the few calls whose pages are judged (and
   * whose timing is not, so their large bodies may be collected as they arrive). `authorization`:
   * the header to send instead of the run's token form (null: none), for the refused calls' bursts.
   */
  async burst(requests: readonly LoadRequest[], amount: number, segment: string, wholeBodies = false, authorization?: string | null): Promise<BurstOutcome> {
    const stop = this.#options.halt?.() ?? null;
    if (stop !== null) throw stop;
    if (this.#burstsStalled !== null) return { exchanges: [], unanswered: amount, failure: `not sent: ${this.#burstsStalled}` };
    const first = this.client.reserveExchangeIds(amount);
    // Loaded at the first burst, not at start: autocannon is about 25 MB of a process, and many runs send no burst.
    const { runAutocannon } = await import('../load/autocannon-run.ts');
    LARGE_BODIES.settle(); // the garbage of large bodies goes before the burst, not on top of it (and no collection pauses it)
    const run = await runAutocannon(this.#burstOptions(requests, amount, first, wholeBodies, authorization)).catch((error: unknown) => {
      // A TLS failure on a burst's connection after the preflight verified: the certificate changed mid-run.
      if (error instanceof ClockcheckError && error.code === 'CLOCKCHECK_TARGET' && this.#options.onCertificateChange) throw this.#options.onCertificateChange(error.message);
      throw error;
    });
    for (const exchange of run.exchanges) {
      this.#seen(exchange, segment);
      await this.#options.pacer.acquire(); // inside pacer.unpaced: recorded, not waited for, so later checks keep their distance
    }
    if (run.stoppedEarly?.code === 'TLS_ERROR' && this.#options.onCertificateChange) throw this.#options.onCertificateChange(run.stoppedEarly.message);
    if (run.failure === null) return { exchanges: run.exchanges, unanswered: run.unanswered };
    const failure = `the burst stopped at its first broken call: ${run.failure.message} (${run.failure.code})`;
    if (run.failure.code === 'EXCHANGE_TIMEOUT') {
      this.#burstsStalled = `an earlier burst stalled (${run.failure.message})`;
      this.#options.onStall?.(run.stalledMs, `a burst's call (${run.failure.message})`);
    }
    return { exchanges: run.exchanges, unanswered: run.unanswered, failure };
  }

  /** A burst's autocannon options: the client's trust, pin and token form, the exchange deadline, cut at the run's time limit and at its first broken call. */
  #burstOptions(requests: readonly LoadRequest[], amount: number, first: number, wholeBodies: boolean, authorization: string | null | undefined): AutocannonRunOptions {
    const { profile } = this.#options;
    const leftMs = this.#options.timeLeftMs?.();
    return {
      origin: this.client.origin,
      apiPrefix: profile.api_prefix,
      token: this.#options.token,
      ...(this.#options.secrets || this.#options.secondToken ? { secrets: [...(this.#options.secrets ?? []), ...(this.#options.secondToken ? [this.#options.secondToken] : [])] } : {}),
      authorization: authorization === undefined ? this.client.authorization() : authorization,
      tls: { ...this.#tls(), ...(this.client.certificatePin ? { pin: this.client.certificatePin } : {}) },
      requests,
      connections: profile.rate_limit.connections,
      amount,
      keepExchanges: true,
      maxBodyBytes: wholeBodies ? DEFAULT_MAX_RESPONSE_BYTES : BURST_BODY_BYTES,
      cutBodyBytes: DEFAULT_ABORT_RESPONSE_BYTES,
      collectWhileRunning: wholeBodies,
      sampleIntervalMs: 10,
      timeoutSeconds: Math.max(1, Math.ceil(profile.timeouts.exchange / 1000)),
      stopOnFailure: true,
      ...(leftMs === undefined || !Number.isFinite(leftMs) ? {} : { maxDurationSeconds: Math.max(1, Math.ceil(leftMs / 1000)) }),
      userAgent: `clockcheck/${toolVersion()}`,
      firstExchangeId: first - 1,
      ...(this.#options.abortSignal ? { abortSignal: this.#options.abortSignal } : {}),
    };
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Closes at once: the calls in flight are dropped (an interrupted run does not wait for them). */
  destroy(): Promise<void> {
    return this.client.destroy();
  }

  /** The pacer's turn, then the halt: a call that waited its turn past a signal or the run's limit is not sent. */
  async #acquire(auth?: RequestAuth) {
    // A second company's token with a window of its own (second_company.rate_limit: per-token) is paced in that window, beside the run's.
    const pacer = auth === 'second-token' && this.#secondPacer !== null ? this.#secondPacer : this.#options.pacer;
    const slot = await pacer.acquire();
    const stop = CLEANING.getStore() === this ? null : (this.#options.halt?.() ?? null);
    if (stop !== null) {
      slot.done();
      throw stop;
    }
    return slot;
  }

  /** The part of the rate-limit phase the call under way belongs to (RunTransport.call); undefined for a paced check's call. */
  #segmentNow(): string | undefined {
    const store = SEGMENT.getStore();
    return store?.transport === this ? store.segment : undefined;
  }

  #tls() {
    return { ...(this.#options.caPem ? { caPem: this.#options.caPem } : {}), insecure: this.#options.insecure };
  }

  #seen(exchange: Exchange, segment: string): void {
    this.#made++;
    // The run-wide view keeps what a report keeps, not whole bodies; a second company's calls in a window of their own are not the run's token's.
    if (!(exchange.company === 'second' && this.#secondPacer !== null)) this.monitor.observe(retainExchange(exchange), segment);
    this.#options.progress?.tick();
    this.#options.onExchange?.(exchange);
    for (const listener of this.#taps) listener(exchange, segment);
  }
}
