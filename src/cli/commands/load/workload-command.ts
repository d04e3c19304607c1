import { resolve } from 'node:path';
import { Redactor } from '../../../client/redaction.ts';
import { UsageError } from '../../../errors.ts';
import { loadRunId } from '../../../load/load-run.ts';
import type { Profile } from '../../../profile/profile.ts';
import { toolVersion } from '../../../version.ts';
import { useColor } from '../../color.ts';
import { checkEmbeddedOptions, hostNeedingYes, judgedRateLimit, openLoadTarget } from './load-target.ts';
import type { LoadValues } from './load-values.ts';
import type { ResolvedWorkload } from './resolve-workload.ts';

/**
 * `load --workload FILE|default`: the workload's flows against --target or an embedded reference
 * server, per-operation results and verdict. A workload that writes needs --yes on a target that is
 * not loopback, and says before it starts how many records it creates at most.
 * @returns the exit code of the verdict: 0 every check and threshold met, 1 otherwise.
 * @throws UsageError for an embedded server's option with --target, a target not loopback without --yes,
 *   or a fixture the workload needs missing from the profile; the target's access errors (resolveTargetAccess).
 */
export async function workloadCommand(values: LoadValues, profile: Profile, { workload, ensure }: ResolvedWorkload): Promise<number> {
  // The workload's modules load only with --workload: a one-endpoint load does without them.
  const plan = await import('../../../workload/workload-plan.ts');
  const { describeArrival } = await import('../../../workload/arrival.ts');
  const target = values.target ?? profile.target;
  checkEmbeddedOptions(values, target);
  const writes = plan.maxWrites(workload);
  const what = `workload ${workload.name}, ${describeArrival(workload.arrival)}${writes > 0 ? `, creating or editing at most ${writes} records (permanent: this API deletes no user, timesheet or break)` : ', reads only'}`;
  const hostname = hostNeedingYes(target, values.yes);
  if (hostname !== null) {
    throw new UsageError(`refusing to load ${hostname} without --yes: it is not this machine, and this would send the ${what}; add --yes to confirm${writes > 0 ? ' (or --read-only to send only reads)' : ''}`);
  }
  if (target) plan.requireFixtures(workload, profile);
  const { reach, server } = await openLoadTarget(target, profile, values);
  try {
    const { embeddedProfile } = await import('../../../embedded/embedded-profile.ts');
    const runProfile = server ? embeddedProfile({ ...server, rateLimit: values['server-rate-limit'] }) : profile;
    const seed = values.seed ?? Math.floor(Math.random() * 2 ** 31);
    const runId = loadRunId(new Date());
    if (!values.quiet) process.stderr.write(`load: ${reach.origin}${profile.api_prefix}: ${what}; seed ${seed}\n`);
    const { runWorkloadLoad } = await import('../../../workload/workload-run.ts');
    const report = await runWorkloadLoad({
      origin: reach.origin,
      apiPrefix: profile.api_prefix,
      token: reach.token,
      tls: { caPem: reach.caPem, insecure: reach.insecure },
      allowPlainHttp: values['allow-http'],
      profile: runProfile,
      workload,
      seed,
      readOnly: values['read-only'],
      ensure,
      rateLimit: judgedRateLimit(values, profile, server !== null),
      embedded: server !== null,
      toolVersion: toolVersion(),
      runId,
      ...(values.sample === undefined ? {} : { sampleEvery: values.sample }),
      replay: `clockcheck load --workload ${values.workload} --seed ${seed}${target ? ` --target ${reach.origin}` : ''}`,
    });
    const { writeWorkloadReports } = await import('../../../workload/write-workload-reports.ts');
    const { workloadSummary } = await import('../../../workload/workload-summary.ts');
    const paths = await writeWorkloadReports(report, resolve(values['report-dir'], runId));
    process.stdout.write(new Redactor(reach.token).text(workloadSummary(report, { color: useColor(process.stdout), paths })));
    return report.exitCode;
  } finally {
    await server?.close();
  }
}
