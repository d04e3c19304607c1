import { Worker } from 'node:worker_threads';
import { faultByName, type Fault } from '../reference/faults.ts';
import type { EmbeddedCertification } from './embedded-target.ts';
import type { FaultDetection } from './fault-detection.ts';

/** One fault's certification, as a worker gets it: plain data (a fault travels by name). */
export interface FaultJob {
  readonly fault: string;
  readonly certification: EmbeddedCertification;
}

/** What a worker sends back: the detection with its fault by name, or why the certification threw. */
export type FaultAnswer = { readonly detection: Omit<FaultDetection, 'fault'> & { readonly fault: string } } | { readonly error: string };

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
 * Certifies `faults` in `workers` worker threads, one certification at a time in each: a thread has
 * its own event loop, so on two cores two certifications run side by side (in one thread they only
 * take turns). Each fault is certified exactly as in this thread (certifyEmbedded, the same options);
 * `onDetection` gets each as it ends. The threads are ended when the last fault is done, or at the
 * first one that threw (its error is thrown here).
 */
export async function certifyFaultsInWorkers(
  faults: readonly Fault[],
  certification: EmbeddedCertification,
  workers: number,
  onDetection: (detection: FaultDetection) => void,
): Promise<void> {
  const queue = [...faults];
  const threads = Array.from({ length: Math.max(1, Math.min(workers, queue.length)) }, () => new Worker(WORKER_URL));
  try {
    await Promise.all(threads.map((thread) => drain(thread, queue, certification, onDetection)));
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/** Gives `thread` the next fault of `queue` until it is empty. */
async function drain(thread: Worker, queue: Fault[], certification: EmbeddedCertification, onDetection: (detection: FaultDetection) => void): Promise<void> {
  for (let fault = queue.shift(); fault; fault = queue.shift()) {
    const answer = await ask(thread, { fault: fault.name, certification });
    if ('error' in answer) throw new Error(`the selftest's worker could not certify ${fault.name}: ${answer.error}`);
    onDetection({ ...answer.detection, fault: faultByName(answer.detection.fault) });
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
    const onExit = (code: number) => settle(() => reject(new Error(`the selftest's worker ended (exit code ${code}) while certifying ${job.fault}`)));
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onExit);
    thread.postMessage(job);
  });
}
