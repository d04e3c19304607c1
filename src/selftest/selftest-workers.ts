import { Worker } from 'node:worker_threads';
import { InternalError } from '../errors.ts';
import { faultByName } from '../reference/faults.ts';
import type { EmbeddedCertification } from '../embedded/embedded-target.ts';
import type { FaultDetection } from './fault-detection.ts';

/** One fault's certification, as a worker gets it: plain data (a fault travels by name). */
export interface FaultJob {
  readonly fault: string;
  readonly certification: EmbeddedCertification;
}

/** What a worker sends back: the detection with its fault by name, or why the certification threw. */
export type FaultAnswer = { readonly detection: Omit<FaultDetection, 'fault'> & { readonly fault: string } } | { readonly error: string };

/**
 * How much less a worker thread is scheduled than the main thread, as a nice value: the main thread's
 * certifications with bursts must answer a burst within a fifth of a one-second window, and three
 * busy workers on two cores left it too little of a core to (5 of its 12 clean certifications went
 * unjudged in one selftest). The workers still take every cycle the main thread leaves idle.
 */
export const WORKER_NICENESS = 10;

/** The worker's module beside this one: selftest-worker.js in the compiled package. */
const WORKER_URL = new URL('./selftest-worker.js', import.meta.url);

/**
 * Whether the selftest can certify in worker threads: from the compiled code (dist/, or the tests'
 * .devbuild/), where the worker's module is JavaScript. From the TypeScript sources (a test calling
 * `selftest` in its own process) the certifications stay in this thread.
 */
export function selftestWorkersAvailable(): boolean {
  return import.meta.url.endsWith('.js');
}

/**
 * Certifies faults in worker threads, one certification at a time in each: a thread has its own event
 * loop, so on two cores two certifications run side by side (in one thread they only take turns).
 * Each fault is certified exactly as in the main thread (certifyEmbedded, the job's options);
 * `onDetection` gets each as it ends. The pool starts the threads `grow` asks for (and can be grown
 * while it works). Each thread runs `worker`: the worker's module beside this one, or the built one a
 * test of the pool from the sources gives.
 */
export class FaultWorkerPool {
  readonly #queue: FaultJob[];
  readonly #threads: Worker[] = [];
  readonly #drains: Promise<void>[] = [];
  readonly #onDetection: (detection: FaultDetection) => void;
  readonly #worker: URL;

  constructor(jobs: readonly FaultJob[], onDetection: (detection: FaultDetection) => void, worker: URL = WORKER_URL) {
    this.#queue = [...jobs];
    this.#onDetection = onDetection;
    this.#worker = worker;
  }

  /** Starts threads until `threads` work (never more than the jobs left). */
  grow(threads: number): void {
    while (this.#threads.length < threads && this.#queue.length > 0) {
      const thread = new Worker(this.#worker);
      this.#threads.push(thread);
      const drain = this.#drain(thread);
      drain.catch(() => undefined); // awaited in finished()
      this.#drains.push(drain);
    }
  }

  /** Resolves once every job is done (its error thrown, the first a certification threw); the threads are ended. */
  async finished(): Promise<void> {
    try {
      for (let i = 0; i < this.#drains.length; i++) await this.#drains[i];
    } finally {
      await Promise.all(this.#threads.map((thread) => thread.terminate()));
    }
  }

  /** Ends the threads now and leaves the jobs not yet begun undone (the selftest failed elsewhere). */
  async stop(): Promise<void> {
    this.#queue.length = 0;
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
  }

  /** Gives `thread` the next job until there is none. */
  async #drain(thread: Worker): Promise<void> {
    for (let job = this.#queue.shift(); job; job = this.#queue.shift()) {
      const answer = await ask(thread, job);
      // A certification throws only for a bug of ours (a target's doing is a verdict): the selftest ends with exit 70.
      if ('error' in answer) throw new InternalError(`the selftest's worker could not certify ${job.fault}: ${answer.error}`);
      this.#onDetection({ ...answer.detection, fault: faultByName(answer.detection.fault) });
    }
  }
}

function ask(thread: Worker, job: FaultJob): Promise<FaultAnswer> {
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
      done();
    };
    const onMessage = (answer: FaultAnswer) => settle(() => resolve(answer));
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => settle(() => reject(new InternalError(`the selftest's worker ended (exit code ${code}) while certifying ${job.fault}`)));
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onExit);
    thread.postMessage(job);
  });
}
