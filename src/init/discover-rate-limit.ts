import type { Exchange } from '../client/exchange.ts';
import { retryAfterMs } from '../client/retry-after.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { durationText } from '../input/duration-text.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import { said } from './list-answer.ts';

/** A rate limit as the profile's `rate_limit` spells it: `{ limit: 60, window: 60s }`. */
export interface RateLimitKey {
  readonly limit: number;
  /** A duration as the profile reads it (`60s`, `1m`, `500ms`). */
  readonly window: string;
}

/** What the answers said about the target's limit: each header that states one, and the first 429. */
interface Statements {
  /** `RateLimit-Policy` (IETF draft): a limit and its window. */
  readonly policy: { readonly setting: RateLimitSetting; readonly text: string; readonly by: Exchange } | null;
  /** Each distinct `X-RateLimit-Limit`, with the first answer that stated it. */
  readonly limits: ReadonlyArray<{ readonly limit: number; readonly by: Exchange }>;
  /** The first 429 init got, its Retry-After as sent, and in ms (null when absent or unreadable). */
  readonly throttled: { readonly by: Exchange; readonly retryAfter: string | undefined; readonly retryAfterMs: number | null } | null;
}

/**
 * The target's rate limit, as `init` establishes it: the `--rate-limit` given (`given`), else what
 * the answers' headers state (`RateLimit-Policy` names a limit and its window; `X-RateLimit-Limit`
 * a limit, whose window is then §8's minute unless a 429's Retry-After shows a longer one), else
 * not found: §8's 60 calls a minute applies. `spec` is §8's limit, as the profile's defaults hold it.
 */
export function discoverRateLimit(given: RateLimitSetting | undefined, exchanges: readonly Exchange[], spec: RateLimitSetting): Discovery<RateLimitKey> {
  const stated = statements(exchanges);
  const throttled = stated.throttled ? `; ${said(stated.throttled.by)}${retryAfterText(stated.throttled.retryAfter)}` : '';
  if (given) {
    const headers = stated.policy ? `RateLimit-Policy: ${stated.policy.text}` : stated.limits.map((l) => `X-RateLimit-Limit: ${l.limit}`).join(', ');
    return found(key(given), `from --rate-limit, which init paced itself by${headers ? ` (the answers state ${headers})` : ''}${throttled}`);
  }
  if (stated.policy) return found(key(stated.policy.setting), `${said(stated.policy.by)}: RateLimit-Policy: ${stated.policy.text}${throttled}`);
  const [first, ...others] = stated.limits;
  if (first && others.length > 0) {
    const all = stated.limits.map((l) => `X-RateLimit-Limit: ${l.limit} (${said(l.by)})`).join(', ');
    return notFound(`the answers disagree, ${all}; set the target's limit (§8's 60 calls a minute applies until you do)`);
  }
  const retry = stated.throttled?.retryAfterMs ?? null;
  if (first && retry !== null && retry > spec.windowMs) {
    return notFound(
      `${said(first.by)}: X-RateLimit-Limit: ${first.limit}, but ${said(stated.throttled!.by)}${retryAfterText(stated.throttled!.retryAfter)}: a window longer than §8's minute, which no header states; set rate_limit: { limit: ${first.limit}, window: <the target's window> }`,
    );
  }
  if (first) {
    return found(key({ limit: first.limit, windowMs: spec.windowMs }), `${said(first.by)}: X-RateLimit-Limit: ${first.limit}; no header states the window, so it is §8's (${durationText(spec.windowMs)})${throttled}`);
  }
  if (stated.throttled) {
    return notFound(
      `${said(stated.throttled.by)}${retryAfterText(stated.throttled.retryAfter)} although init paced itself at §8's 60 calls a minute, and no answer states the limit: the target's limit is lower, or other clients share the token; set the target's limit`,
    );
  }
  return notFound(`no answer states the target's limit (no X-RateLimit-Limit or RateLimit-Policy header) and no --rate-limit was given: the spec's 60 calls a minute (§8) applies`);
}

function key(setting: RateLimitSetting): RateLimitKey {
  return { limit: setting.limit, window: durationText(setting.windowMs) };
}

function retryAfterText(header: string | undefined): string {
  return header === undefined ? ' (no Retry-After)' : ` with Retry-After: ${header}`;
}

/** The rate-limit headers of `exchanges`, in the order they came. */
function statements(exchanges: readonly Exchange[]): Statements {
  let policy: Statements['policy'] = null;
  const limits: Array<{ limit: number; by: Exchange }> = [];
  let throttled: Statements['throttled'] = null;
  for (const exchange of exchanges) {
    const response = exchange.response;
    if (!response) continue;
    const policyText = response.headers['ratelimit-policy'];
    const setting = policyText === undefined ? null : parsePolicy(policyText);
    if (!policy && setting && policyText !== undefined) policy = { setting, text: policyText, by: exchange };
    const limit = positiveInteger(response.headers['x-ratelimit-limit']);
    if (limit !== null && !limits.some((l) => l.limit === limit)) limits.push({ limit, by: exchange });
    if (!throttled && response.status === 429) {
      const retryAfter = response.headers['retry-after'];
      throttled = { by: exchange, retryAfter, retryAfterMs: retryAfterMs(retryAfter, exchange.sentAtMs + exchange.durationMs) };
    }
  }
  return { policy, limits, throttled };
}

/**
 * The first policy of a `RateLimit-Policy` header: `60;w=60` (drafts up to 07) or
 * `"default";q=60;w=60` (later drafts); null without both a limit and a window in seconds.
 */
export function parsePolicy(text: string): RateLimitSetting | null {
  const [item = ''] = text.split(',');
  const [head = '', ...params] = item.split(';').map((part) => part.trim());
  const param = (name: string) => positiveInteger(params.find((p) => p.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1));
  const limit = positiveInteger(head) ?? param('q');
  const seconds = param('w');
  return limit === null || seconds === null ? null : { limit, windowMs: seconds * 1000 };
}

function positiveInteger(text: string | undefined): number | null {
  if (text === undefined || !/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
