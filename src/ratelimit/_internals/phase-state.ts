import { SYSTEM_CLOCK, type Clock } from '../../clock.ts';
import type { Exchange } from '../../client/exchange.ts';
import type { LoadRequest } from '../../load/autocannon-run.ts';
import type { RateLimitPhaseDeps } from '../phase-deps.ts';
import { certainlyCounted, timed, type TimedCall } from '../window-count.ts';

/** What the steps of the phase share: the probe, the calls served so far with their timing, when the last call ended. */
export class PhaseState {
  readonly probe: LoadRequest;
  readonly served: TimedCall[] = [];
  readonly clock: Clock;
  lastEnd: number;

  constructor(readonly deps: RateLimitPhaseDeps) {
    this.probe = { method: 'GET', path: deps.profile.rate_limit.probe_path };
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.lastEnd = this.clock.now();
  }

  /** Keeps the calls among `exchanges` that certainly count (served, or answered 4xx), with their timing, under `segment`. */
  keepServed(exchanges: readonly Exchange[], segment: string): void {
    for (const e of exchanges) if (certainlyCounted(e)) this.served.push(timed(e, segment));
  }
}

/** When the last of `exchanges` was answered, ms on the phase's clock. */
export function endOf(exchanges: readonly Exchange[]): number {
  return Math.max(...exchanges.map((e) => e.sentAtMs + e.durationMs));
}
