import { UsageError } from '../../../errors.ts';
import { resolveLoadOptions } from '../../../load/load-options.ts';
import type { WorkloadThreshold } from '../../../workload/workload-ensure.ts';
import type { Workload } from '../../../workload/workload-file.ts';
import type { LoadValues } from './load-values.ts';

/** `--workload` resolved: the workload as it will run, and its thresholds. */
export interface ResolvedWorkload {
  /** The file's (or `default`'s) workload, its arrival shaped by the command line, read-only with --read-only. */
  readonly workload: Workload;
  /** `--ensure`, each threshold of the whole run or of one of the workload's operations. */
  readonly ensure: readonly WorkloadThreshold[];
}

/**
 * The options of `load --workload FILE|default`, resolved once: the workload read (or the default),
 * --connections, --duration and --rate over its arrival, --read-only, --ensure by its operations.
 * @throws UsageError for --endpoint or --amount, which a workload does not take, or a malformed option;
 *   the workload file's errors (file:line).
 */
export async function resolveWorkload(values: LoadValues): Promise<ResolvedWorkload> {
  for (const [flag, given] of [['--endpoint', values.endpoint], ['--amount', values.amount]] as const) {
    if (given !== undefined) throw new UsageError(`load: ${flag} does not go with --workload (${flag === '--amount' ? 'a workload runs for a time: give --duration' : 'the workload names its operations'})`);
  }
  // The workload's modules load only with --workload: a one-endpoint load does without them.
  const { loadWorkload } = await import('../../../workload/workload-file.ts');
  const { defaultWorkload } = await import('../../../workload/default-workload.ts');
  const plan = await import('../../../workload/workload-plan.ts');
  const { parseWorkloadEnsure } = await import('../../../workload/workload-ensure.ts');
  let workload = values.workload === 'default' ? defaultWorkload() : await loadWorkload(values.workload as string);
  // The command line's shape over the workload's own arrival: validated as for a one-endpoint run.
  const shape = resolveLoadOptions({ connections: values.connections, duration: values.duration, rate: values.rate });
  workload = {
    ...workload,
    arrival: plan.arrivalWith(workload.arrival, {
      ...(values.rate !== undefined ? { rate: shape.rate! } : {}),
      ...(values.connections !== undefined ? { connections: shape.connections } : {}),
      ...(values.duration !== undefined && shape.stop.kind === 'duration' ? { durationMs: shape.stop.seconds * 1000 } : {}),
    }),
  };
  if (values['read-only']) workload = plan.readOnlyWorkload(workload);
  return { workload, ensure: parseWorkloadEnsure(values.ensure, plan.operationsOf(workload)) };
}
