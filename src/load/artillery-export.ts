import { yamlPackage } from '../input/yaml-package.ts';
import { artilleryEnsure, type ArtilleryEnsure } from './_internals/artillery-ensure.ts';
import { artilleryShape, type ArtilleryShape } from './_internals/artillery-phases.ts';
import { requestName } from './artillery-endpoint.ts';
import { describeLoad, type LoadOptions } from './load-options.ts';
import type { RateLimitWindow } from './load-verdict.ts';

/** What `load --export artillery` writes a script from: the load run as `load` would make it, without its token. */
export interface ArtilleryExportInput {
  readonly options: LoadOptions;
  /** `https://host[:port]`: the spec's `{base_url}`, Artillery's `config.target`. */
  readonly origin: string;
  readonly apiPrefix: string;
  /** The environment variable that holds the token when Artillery runs (the profile's token_env, default CLOCKCHECK_TOKEN). */
  readonly tokenEnv: string;
  /** The CA certificate (PEM, public) written into the script, or `insecure` to skip verification. */
  readonly tls: { readonly caPem?: string | undefined; readonly insecure: boolean };
  /** The limit `load` would judge against: not expressible in Artillery, so listed as unmapped. */
  readonly rateLimit: RateLimitWindow | null;
  readonly toolVersion: string;
  /** The script's file name, for the comment's `artillery run` line. */
  readonly file: string;
}

/** An Artillery 2.x script (YAML) and what of `load`'s verdict it could not carry. */
export interface ArtilleryExport {
  readonly yaml: string;
  /** `what: why` for each judgement with no Artillery equivalent; also in the script's comment. */
  readonly unmapped: readonly string[];
}

/** Seconds Artillery waits for an answer: load's timeout (an exchange without its answer in 10 s is a timeout). */
const TIMEOUT_SECONDS = 10;

function tlsConfig(input: ArtilleryExportInput): Record<string, unknown> | null {
  if (!input.origin.startsWith('https:')) return null;
  if (input.tls.insecure) return { rejectUnauthorized: false };
  // Artillery hands config.tls to got's `https` options, where the CA's PEM is `certificateAuthority`.
  return input.tls.caPem ? { certificateAuthority: input.tls.caPem } : null;
}

/** The scenario's flow: one GET, looped when each virtual user sends several calls in a row. */
function flow(input: ArtilleryExportInput, shape: ArtilleryShape): unknown[] {
  const { endpoint } = input.options;
  // §5.2: the raw token in Authorization, no Bearer; Artillery reads it from the environment when it runs.
  const request = { url: `${input.apiPrefix}${endpoint.path}`, name: requestName(endpoint), headers: { Authorization: `{{ $env.${input.tokenEnv} }}` } };
  const call = { [endpoint.method.toLowerCase()]: request };
  return shape.callsPerUser === 1 ? [call] : [{ loop: [call], count: shape.callsPerUser }];
}

function ensureConfig(ensure: ArtilleryEnsure): Record<string, unknown> {
  return {
    ...(ensure.thresholds.length > 0 ? { thresholds: ensure.thresholds } : {}),
    ...(ensure.conditions.length > 0 ? { conditions: ensure.conditions } : {}),
  };
}

/** The opening comment: what the script is, how to run it, how each of load's options and checks maps, and what does not. */
function opening(input: ArtilleryExportInput, shape: ArtilleryShape, ensure: ArtilleryEnsure): string[] {
  const bullet = (line: string) => `  - ${line}`;
  return [
    `clockcheck ${input.toolVersion} load --export artillery: ${input.options.endpoint.method} ${input.origin}${input.apiPrefix}${input.options.endpoint.path} ${describeLoad(input.options).replace(/^\S+ \S+ /, '')}.`,
    `Run: ${input.tokenEnv}=<token> artillery run --output report.json ${input.file}`,
    `then: clockcheck load --from-artillery report.json, with the options this was exported with (--ensure among them).`,
    `More load: artillery run-fargate --count N (or run-lambda --count N) runs this whole script on each of N workers: N times the load.`,
    `The token is not in this file: Authorization is the raw token (spec 5.2, no Bearer), read from $${input.tokenEnv} when Artillery runs.`,
    '',
    'How the run maps to Artillery:',
    ...shape.explained.map(bullet),
    bullet(`http.timeout ${TIMEOUT_SECONDS}: load's timeout. Response times are Artillery's: from the call written to the answer's first byte, in whole ms.`),
    bullet('metrics-by-endpoint names the calls by the request name, the endpoint as --endpoint takes it, so --from-artillery finds it.'),
    '',
    "load's verdict as ensure checks (artillery run exits 1 where load would):",
    ...ensure.mapped.map(bullet),
    ...(ensure.unmapped.length > 0 ? ['', 'No Artillery equivalent (not in this script):', ...ensure.unmapped.map(bullet)] : []),
  ];
}

/**
 * The Artillery 2.x script of a load run: the same endpoint, target, TLS trust, shape and verdict,
 * the token read from the environment when Artillery runs (never written). Sends nothing.
 * @throws UsageError when the run's shape has no Artillery form (an unpaced timed run).
 */
export function artilleryScript(input: ArtilleryExportInput): ArtilleryExport {
  const shape = artilleryShape(input.options);
  const ensure = artilleryEnsure(input.options.ensure, input.rateLimit);
  const tls = tlsConfig(input);
  const script = {
    config: {
      target: input.origin,
      ...(tls === null ? {} : { tls }),
      http: { timeout: TIMEOUT_SECONDS },
      phases: shape.phases,
      plugins: {
        'metrics-by-endpoint': { useOnlyRequestNames: true },
        ...(ensure.thresholds.length + ensure.conditions.length > 0 ? { ensure: ensureConfig(ensure) } : {}),
      },
    },
    scenarios: [{ name: 'clockcheck load', flow: flow(input, shape) }],
  };
  const doc = new (yamlPackage().Document)(script);
  doc.commentBefore = opening(input, shape, ensure)
    .map((line) => (line === '' ? '' : ` ${line}`))
    .join('\n');
  return { yaml: doc.toString({ lineWidth: 0 }), unmapped: ensure.unmapped };
}
