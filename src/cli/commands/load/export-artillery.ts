import { writeFile } from 'node:fs/promises';
import { Redactor } from '../../../client/redaction.ts';
import { UsageError } from '../../../errors.ts';
import { artilleryScript } from '../../../load/artillery-export.ts';
import { describeLoad, type LoadOptions } from '../../../load/load-options.ts';
import type { Profile } from '../../../profile/profile.ts';
import { readPemFile } from '../../../tls/pem-file.ts';
import { toolVersion } from '../../../version.ts';
import { judgedRateLimit, refuseEmbeddedOptions } from './load-target.ts';
import type { LoadValues } from './load-values.ts';
import type { ResolvedWorkload } from './resolve-workload.ts';
import { scriptOrigin } from './script-origin.ts';

/**
 * `--export artillery FILE`: the run as an Artillery script, written and not run. Neither the embedded
 * server nor the token is needed: the script reads the token from the environment when Artillery runs.
 * @returns the exit code: 0, the script written.
 * @throws UsageError without FILE or a target, with an embedded server's option, or with the token in --endpoint.
 */
export async function exportArtillery(values: LoadValues, file: string | undefined, options: LoadOptions, profile: Profile): Promise<number> {
  if (file === undefined) throw new UsageError('load: --export artillery needs FILE, the script to write (- for stdout): --export artillery load.yml');
  refuseEmbeddedOptions(values, '--export');
  const target = values.target ?? profile.target;
  if (!target) throw new UsageError('load --export artillery needs --target (or a profile with target): the script runs later, where no embedded reference server is');
  const envToken = process.env[profile.token_env];
  if (envToken && new Redactor(envToken).text(options.endpoint.path) !== options.endpoint.path) {
    throw new UsageError(`load --export artillery: --endpoint holds the value of ${profile.token_env}, and the script would carry it; the token goes in Authorization only`);
  }
  const exported = artilleryScript({
    options,
    origin: scriptOrigin(target, profile, values['allow-http']),
    apiPrefix: profile.api_prefix,
    tokenEnv: profile.token_env,
    tls: await scriptTls(values, profile),
    rateLimit: judgedRateLimit(values, profile, false),
    toolVersion: toolVersion(),
    file: file === '-' ? 'script.yml' : file,
  });
  if (file === '-') process.stdout.write(exported.yaml);
  else await writeFile(file, exported.yaml, 'utf8');
  const where = file === '-' ? 'stdout' : file;
  if (!values.quiet) process.stderr.write(`load: wrote ${where}: an Artillery 2.x script of ${describeLoad(options)}; run it with ${profile.token_env} set: artillery run --output report.json ${file === '-' ? 'SCRIPT' : file}\n`);
  for (const line of exported.unmapped) process.stderr.write(`load: no Artillery equivalent, not in the script: ${line}\n`);
  return 0;
}

/**
 * `load --workload … --export artillery FILE`: the workload as an Artillery script, written and not run (no token needed).
 * @returns the exit code: 0, the script written.
 * @throws UsageError without FILE or a target, with an embedded server's option, or a fixture the workload needs missing from the profile.
 */
export async function exportWorkload(values: LoadValues, profile: Profile, { workload, ensure }: ResolvedWorkload, file: string | undefined): Promise<number> {
  if (file === undefined) throw new UsageError('load: --export artillery needs FILE, the script to write (- for stdout): --export artillery workload.yml');
  refuseEmbeddedOptions(values, '--export');
  const target = values.target ?? profile.target;
  if (!target) throw new UsageError('load --workload --export artillery needs --target (or a profile with target): the script runs later, where no embedded reference server is');
  // The workload's modules load only with --workload: a one-endpoint export does without them.
  const { requireFixtures } = await import('../../../workload/workload-plan.ts');
  requireFixtures(workload, profile);
  const { workloadArtilleryScript } = await import('../../../workload/artillery-workload.ts');
  const seed = values.seed ?? Math.floor(Math.random() * 2 ** 31);
  const exported = workloadArtilleryScript({
    workload,
    origin: scriptOrigin(target, profile, values['allow-http']),
    apiPrefix: profile.api_prefix,
    tokenEnv: profile.token_env,
    tls: await scriptTls(values, profile),
    profile,
    seed,
    ensure,
    toolVersion: toolVersion(),
    file: file === '-' ? 'script.yml' : file,
  });
  if (file === '-') process.stdout.write(exported.yaml);
  else await writeFile(file, exported.yaml, 'utf8');
  if (!values.quiet) process.stderr.write(`load: wrote ${file === '-' ? 'stdout' : file}: workload ${workload.name} as an Artillery 2.x script; run it with ${profile.token_env} set: artillery run --output report.json ${file === '-' ? 'SCRIPT' : file}\n`);
  for (const line of exported.unmapped) process.stderr.write(`load: not in the script: ${line}\n`);
  return 0;
}

/** The TLS trust an Artillery script carries: the CA file's PEM (--ca, else the profile's), or insecure. */
async function scriptTls(values: LoadValues, profile: Profile): Promise<{ caPem: string | undefined; insecure: boolean }> {
  const caFile = values.ca ?? profile.tls.ca;
  return { caPem: caFile ? await readPemFile(caFile) : undefined, insecure: values.insecure || profile.tls.insecure };
}
