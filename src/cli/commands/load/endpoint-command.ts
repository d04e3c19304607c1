import { resolve } from 'node:path';
import { Redactor } from '../../../client/redaction.ts';
import { UsageError } from '../../../errors.ts';
import { describeLoad, type LoadOptions } from '../../../load/load-options.ts';
import { loadRunId, runLoad } from '../../../load/load-run.ts';
import { loadSummary } from '../../../load/load-summary.ts';
import { writeLoadReports } from '../../../load/write-load-reports.ts';
import type { Profile } from '../../../profile/profile.ts';
import { toolVersion } from '../../../version.ts';
import { useColor } from '../../color.ts';
import { checkEmbeddedOptions, hostNeedingYes, judgedRateLimit, openLoadTarget } from './load-target.ts';
import type { LoadValues } from './load-values.ts';

/**
 * `load` of one endpoint: autocannon against --target or an embedded reference server, its reports
 * (load.json, load.html under --report-dir) and its verdict.
 * @returns the exit code of the verdict: 0 every check and threshold met, 1 otherwise.
 * @throws UsageError for an embedded server's option with --target, or a target not loopback without --yes;
 *   the target's access errors (resolveTargetAccess).
 */
export async function endpointCommand(values: LoadValues, options: LoadOptions, profile: Profile): Promise<number> {
  const target = values.target ?? profile.target;
  checkEmbeddedOptions(values, target);
  const hostname = hostNeedingYes(target, values.yes);
  if (hostname !== null) {
    const envToken = process.env[profile.token_env];
    const refusal = `refusing to load ${hostname} without --yes: it is not this machine, and this would send ${describeLoad(options)}; add --yes to confirm`;
    throw new UsageError(envToken ? new Redactor(envToken).text(refusal) : refusal);
  }
  const { reach, server } = await openLoadTarget(target, profile, values);
  try {
    const { origin, token } = reach;
    // The endpoint is the user's text: a token pasted into its query is redacted wherever it is shown.
    const redactor = new Redactor(token);
    const runId = loadRunId(new Date());
    if (!values.quiet) process.stderr.write(redactor.text(`load: ${origin}${profile.api_prefix}: ${describeLoad(options)}\n`));
    const report = await runLoad({
      origin,
      apiPrefix: profile.api_prefix,
      token,
      tls: { caPem: reach.caPem, insecure: reach.insecure },
      options,
      rateLimit: judgedRateLimit(values, profile, server !== null),
      embedded: server !== null,
      toolVersion: toolVersion(),
      runId,
    });
    const paths = await writeLoadReports(report, resolve(values['report-dir'], runId));
    process.stdout.write(redactor.text(loadSummary(report, { color: useColor(process.stdout), paths })));
    return report.exitCode;
  } finally {
    await server?.close();
  }
}
