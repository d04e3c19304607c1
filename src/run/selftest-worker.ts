import { parentPort } from 'node:worker_threads';
import { faultByName } from '../reference/faults.ts';
import { certifyEmbedded } from './embedded-target.ts';
import { detection } from './fault-detection.ts';
import type { FaultAnswer, FaultJob } from './selftest-workers.ts';

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
