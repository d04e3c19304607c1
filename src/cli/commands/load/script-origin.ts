import { UsageError } from '../../../errors.ts';
import type { Profile } from '../../../profile/profile.ts';

/**
 * `--target` as the origin an Artillery script calls (or its report names), checked as for a run
 * (HTTPS unless `allowHttp`, no path), without the token a run needs.
 * @throws UsageError saying what to fix in --target.
 */
export function scriptOrigin(target: string, profile: Profile, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target "${target}" is not a URL; give the base URL, e.g. https://api.example.com`);
  }
  if (url.protocol === 'http:' && !allowHttp) throw new UsageError(`refusing ${url.origin}: the spec serves the API over HTTPS only (§1); use https:// (or --allow-http for a plain-HTTP development server)`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be https://host[:port], got ${url.protocol}`);
  if (url.pathname !== '/' && url.pathname !== '') throw new UsageError(`--target is the base URL (scheme, host, port); ${profile.api_prefix} is added: drop "${url.pathname}"`);
  return url.origin;
}
