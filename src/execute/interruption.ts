import { RunStopped } from '../errors.ts';

/** The signals that interrupt a run: Ctrl-C (SIGINT) and a polite kill (SIGTERM). */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** What a signal did to the run: the first interrupts it, the second skips its cleanup, later ones change nothing. */
export type SignalEffect = 'interrupted' | 'cleanup-skipped' | 'none';

/**
 * A run's interruption by signal, shared by whoever receives the signals (the CLI) and the run.
 * The first signal interrupts: the run sends nothing new (its guard and transport ask `stopped()`,
 * a burst under way is aborted through `abortSignal`), stops waiting for the checks under way, makes
 * one cleanup attempt of what it can remove, and writes its reports with status `interrupted`. A
 * second signal skips that cleanup (or cuts it short); the run then says what it left.
 */
export class Interruption {
  readonly #abort = new AbortController();
  #signal: StopSignal | null = null;
  #cleanupSkipped = false;
  #skipCleanup: () => void = () => {};
  readonly #interrupt: (signal: StopSignal) => void;
  /** Resolves with the first signal. */
  readonly interrupted: Promise<StopSignal>;
  /** Resolves with the second signal: the cleanup is skipped. */
  readonly cleanupSkippedBySignal: Promise<void>;

  constructor() {
    let interrupt: (signal: StopSignal) => void = () => {};
    this.interrupted = new Promise((resolve) => (interrupt = resolve));
    this.cleanupSkippedBySignal = new Promise((resolve) => (this.#skipCleanup = resolve));
    this.#interrupt = interrupt;
  }

  /** The signal that interrupted the run, or null. */
  get signal(): StopSignal | null {
    return this.#signal;
  }

  /** A second signal came: no cleanup. */
  get cleanupSkipped(): boolean {
    return this.#cleanupSkipped;
  }

  /** Aborted at the first signal: what can be aborted (a burst) listens to it. */
  get abortSignal(): AbortSignal {
    return this.#abort.signal;
  }

  /** A signal arrived. */
  receive(signal: StopSignal): SignalEffect {
    if (this.#signal === null) {
      this.#signal = signal;
      this.#abort.abort();
      this.#interrupt(signal);
      return 'interrupted';
    }
    if (this.#cleanupSkipped) return 'none';
    this.#cleanupSkipped = true;
    this.#skipCleanup();
    return 'cleanup-skipped';
  }

  /** Why nothing more may be sent, once a signal came; else null. */
  stopped(): RunStopped | null {
    if (this.#signal === null) return null;
    return new RunStopped(`interrupted by ${this.#signal}`, 'interrupted');
  }
}
