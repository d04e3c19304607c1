import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';
import { parseThreshold, type Threshold } from '../load/ensure.ts';
import { workloadOperationOf, WORKLOAD_OPERATION_NAMES, type WorkloadOperationName } from './workload-operations.ts';

/** A threshold on the whole run (`operation` null) or on one operation: `POST /timesheets: p99<=800ms`. */
export interface WorkloadThreshold {
  readonly operation: WorkloadOperationName | null;
  readonly threshold: Threshold;
  /** As given: the verdict line's title. */
  readonly text: string;
}

/**
 * `--ensure` parts of a workload run: `p99<=500ms` bounds the whole run, `POST /timesheets:
 * p99<=800ms` one operation (the names `clockcheck load --workload` reports, a path parameter as the
 * spec writes it or as `{id}`). An operation the workload never calls is a mistake, named.
 * @throws UsageError naming the part.
 */
export function parseWorkloadEnsure(parts: readonly string[], used: ReadonlySet<WorkloadOperationName>): WorkloadThreshold[] {
  return parts.map((part) => {
    const colon = part.lastIndexOf(':');
    if (colon < 0) {
      const threshold = parseThreshold(part);
      return { operation: null, threshold, text: threshold.text };
    }
    const name = part.slice(0, colon).trim();
    const resolved = workloadOperationOf(name);
    if (resolved === null) {
      const near = didYouMean(name, WORKLOAD_OPERATION_NAMES);
      throw new UsageError(`--ensure "${part}": "${name}" is not an operation a workload calls${near ? `; did you mean "${near}"?` : ''} (one of: ${WORKLOAD_OPERATION_NAMES.join(', ')})`);
    }
    if (!used.has(resolved.name)) throw new UsageError(`--ensure "${part}": the workload never calls ${resolved.name}, so there is nothing to judge; drop it or add the operation to a flow`);
    const threshold = parseThreshold(part.slice(colon + 1).trim());
    return { operation: resolved.name, threshold, text: `${resolved.name}: ${threshold.text}` };
  });
}
