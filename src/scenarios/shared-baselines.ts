import type { Exchange } from '../client/exchange.ts';
import type { Pair } from './format.ts';

/**
 * The valid baselines of minimal pairs accepted so far in a run, by what they send: a pair whose
 * baseline is the same request with the same expectation as one already accepted judges that
 * answer instead of sending it again (every variant is still sent). Same means the same template:
 * method, prefix, path, query, headers, auth, body and `accept`, as written. The run renders each
 * template the same way (fixtures, profile, dates, the sink), except `unique.*`, which is a fresh
 * valid value each time: a target that accepts one new user with a fresh e-mail accepts another.
 * A template that reads the scenario's own `vars` (its captures, its `let`) is never shared.
 */
export class SharedBaselines {
  readonly #accepted = new Map<string, { readonly exchange: Exchange; readonly checkId: string }>();

  /** The accepted baseline with this key, and the check that sent it, if any. */
  get(key: string): { readonly exchange: Exchange; readonly checkId: string } | undefined {
    return this.#accepted.get(key);
  }

  /** Keeps an accepted baseline (a definite answer that met its expectation); the first one stays. */
  accepted(key: string, exchange: Exchange, checkId: string): void {
    if (!this.#accepted.has(key)) this.#accepted.set(key, { exchange, checkId });
  }
}

/** The key of a pair's baseline, or null when it may not be shared (it reads the scenario's vars). */
export function baselineKey(pair: Pair): string | null {
  const written = JSON.stringify({ request: pair.request, accept: pair.accept ?? null });
  return /\{\{[^}]*\bvars\b/.test(written) ? null : written;
}
