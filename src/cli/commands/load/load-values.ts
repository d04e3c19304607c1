import type { RateLimitSetting } from '../../../contract/rate-limit.ts';

/**
 * The options of `clockcheck load` as its table (`LOAD_COMMAND`, load.ts) resolves them, as the
 * engines and the Artillery paths read them. Written out rather than derived from the table, which
 * would import the command file back from below it; `loadCommand` passes its parsed options here,
 * so the compiler still holds the two together.
 */
export interface LoadValues {
  readonly target: string | undefined;
  readonly endpoint: string | undefined;
  readonly connections: string | undefined;
  readonly duration: string | undefined;
  readonly amount: string | undefined;
  readonly rate: string | undefined;
  /** `--rate-limit`: null for `off`, undefined when not given. */
  readonly 'rate-limit': RateLimitSetting | null | undefined;
  readonly ensure: string[];
  readonly yes: boolean;
  readonly profile: string | undefined;
  readonly ca: string | undefined;
  readonly insecure: boolean;
  readonly 'allow-http': boolean;
  readonly 'report-dir': string;
  /** `--server-rate-limit`: null for `off`, its default. */
  readonly 'server-rate-limit': RateLimitSetting | null;
  readonly fault: string[];
  readonly quiet: boolean;
  readonly workload: string | undefined;
  readonly 'read-only': boolean;
  readonly seed: number | undefined;
  /** `--sample`: one answer in N judged; 1 for `all`, 0 for `none`. */
  readonly sample: number | undefined;
  readonly export: 'artillery' | undefined;
  readonly 'from-artillery': string | undefined;
}
