import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { faultByName } from '../reference/faults.ts';
import { certifyEmbedded } from '../embedded/embedded-target.ts';
import { detection } from './fault-detection.ts';
import { WORKER_NICENESS, type FaultAnswer, type FaultJob } from './selftest-workers.ts';

// Lower this worker thread's priority (WORKER_NICENESS). On Linux a nice value belongs to a thread,
// and 0 names the calling one: this worker alone.
// Elsewhere it would be the whole process's, so it is left; where it cannot be set, the worker runs as it is.
if (parentPort && process.platform === 'linux') {
  try {
    setPriority(0, WORKER_NICENESS);
  } catch {
    // a container that forbids it: only the bursts' timing is less certain, and the second certification is there for that
  }
}

/**
 * A selftest worker thread (selftest-workers.ts): certifies each fault it is given against its own
 * embedded server, in this thread's event loop, and answers with the detection.
 */
parentPort?.on('message', (job: FaultJob) => {
  void certifyOne(job).then((answer) => parentPort?.postMessage(answer));
});

async function certifyOne(job: FaultJob): Promise<FaultAnswer> {
  try {
    const fault = faultByName(job.fault);
    const report = await certifyEmbedded([fault.name], job.certification);
    const found = detection(fault, job.certification.dialect ?? 'standard', report);
    return { detection: { ...found, fault: fault.name } };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
