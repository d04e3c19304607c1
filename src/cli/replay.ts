import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { durationText } from '../input/duration-text.ts';

/**
 * What a replay command carries besides `--only` and `--seed`: everything of a run that decides
 * what a check sends and how it is judged. Never the token (it comes from the environment).
 */
export interface ReplayOptions {
  /** The target's origin; null: the embedded reference server. */
  readonly target: string | null;
  readonly profile: string | undefined;
  readonly rateLimit: RateLimitSetting | undefined;
  readonly ca: string | undefined;
  readonly insecure: boolean;
  readonly allowHttp: boolean;
  /** `--suite` when it is not the default glob. */
  readonly suite: string | undefined;
  /** `--suites-dir` when it is not the package's suites/. */
  readonly suitesDir: string | undefined;
  readonly readOnly: boolean;
  /** The embedded server's faults. */
  readonly faults: readonly string[];
}

/**
 * `clockcheck run` with the options that reproduce a run's checks, each argument quoted for a POSIX
 * shell where it needs it; a replay adds `--only ID --seed S` (and `--budget`, `--path` for a
 * generated case) to it.
 */
export function replayBase(options: ReplayOptions): string {
  const words = ['clockcheck', 'run'];
  const add = (flag: string, value?: string) => words.push(flag, ...(value === undefined ? [] : [shellWord(value)]));
  if (options.target !== null) add('--target', options.target);
  if (options.profile !== undefined) add('--profile', options.profile);
  if (options.rateLimit) add('--rate-limit', `${options.rateLimit.limit}/${durationText(options.rateLimit.windowMs)}`);
  if (options.ca !== undefined) add('--ca', options.ca);
  if (options.insecure) add('--insecure');
  if (options.allowHttp) add('--allow-http');
  if (options.suitesDir !== undefined) add('--suites-dir', options.suitesDir);
  if (options.suite !== undefined) add('--suite', options.suite);
  if (options.readOnly) add('--read-only');
  for (const fault of options.faults) add('--fault', fault);
  return words.join(' ');
}

/** A word as a POSIX shell reads it back: bare when it has only characters no shell treats specially, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
