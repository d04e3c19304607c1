import { readPemFile } from '../tls/pem-file.ts';
import { UsageError } from '../errors.ts';
import type { Profile } from '../profile/profile.ts';

/** How to reach a target a command was pointed at: origin, token and trust, all resolved. */
export interface TargetAccess {
  /** `https://host[:port]`, without path or credentials. */
  readonly origin: string;
  /** From the profile's `token_env` (default CLOCKCHECK_TOKEN); never from the command line. */
  readonly token: string;
  /** From the profile's `second_company.token_env`, when it names one; never from the command line. */
  readonly secondToken: string | undefined;
  readonly caPem: string | undefined;
  readonly caFile: string | undefined;
  readonly insecure: boolean;
}

export interface TargetAccessOptions {
  readonly ca?: string | undefined;
  readonly insecure: boolean;
  readonly allowHttp: boolean;
}

/**
 * The second company's token, from the environment variable the profile's `second_company.token_env`
 * names; undefined without one.
 * @throws UsageError when the variable is unset, or holds the first company's token.
 */
export function secondToken(profile: Profile, token: string): string | undefined {
  const env = profile.second_company?.token_env;
  if (env === undefined) return undefined;
  const value = process.env[env];
  if (!value) throw new UsageError(`set ${env} to the second company's administrator token (second_company.token_env in the profile), or remove second_company to certify one company`);
  if (value === token) throw new UsageError(`${env} holds the same token as ${profile.token_env}: second_company.token_env names a token of another company`);
  return value;
}

/**
 * Resolves `--target` (the spec's `{base_url}`), the token from the environment and the CA file,
 * as `clockcheck run` does: HTTPS only unless `--allow-http`, no path (the API prefix is added).
 * @throws UsageError with one line saying what to fix.
 */
export async function resolveTargetAccess(target: string, profile: Profile, options: TargetAccessOptions): Promise<TargetAccess> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target "${target}" is not a URL; give the base URL, e.g. https://api.example.com`);
  }
  if (url.protocol === 'http:' && !options.allowHttp) {
    throw new UsageError(`refusing ${url.origin}: the spec serves the API over HTTPS only (§1); use https:// (or --allow-http for a plain-HTTP development server)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be https://host[:port], got ${url.protocol}`);
  if (url.pathname !== '/' && url.pathname !== '') throw new UsageError(`--target is the base URL (scheme, host, port); ${profile.api_prefix} is added: drop "${url.pathname}"`);
  const token = process.env[profile.token_env];
  if (!token) throw new UsageError(`set ${profile.token_env} to the target's access token (it is never taken from the command line)`);
  const caFile = options.ca ?? profile.tls.ca;
  return {
    origin: url.origin,
    token,
    secondToken: secondToken(profile, token),
    caPem: caFile ? await readPemFile(caFile) : undefined,
    caFile,
    insecure: options.insecure || profile.tls.insecure,
  };
}
