import { UsageError } from '../../errors.ts';
import type { LoadOptions } from '../load-options.ts';

/** How a load run's shape becomes Artillery's: its phases, and the calls each virtual user sends in a row. */
export interface ArtilleryShape {
  /** `config.phases`. */
  readonly phases: readonly Readonly<Record<string, number>>[];
  /** Calls each virtual user sends one after another on its own keep-alive connection; 1: one call, then the VU ends. */
  readonly callsPerUser: number;
  /** The mapping in words, for the script's opening comment. */
  readonly explained: readonly string[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `load` holds C connections, each with one call in flight, paced at R calls/s over all of them or
 * not; Artillery starts virtual users (VUs) at a rate, each running the scenario on connections of
 * its own. So:
 * - unpaced `--amount N`: C VUs, each sending ceil(N / C) calls in a row on its connection: load's own
 *   closed loop;
 * - paced (`--rate R`): R VUs a second (`--amount N`: N VUs spread over N / R s), each sending one
 *   call; `maxVusers: C` keeps at most C calls in flight, as C connections do.
 * An unpaced timed run has no form: a VU cannot loop until a time without JavaScript (a processor).
 * Not `http.pool`: in Artillery 2.0.21 the calls sent on a shared pool lose their response time (NaN).
 * @throws UsageError for an unpaced timed run, saying what to give instead.
 */
export function artilleryShape(options: LoadOptions): ArtilleryShape {
  const c = options.connections;
  const { rate, stop } = options;
  if (rate === null) {
    if (stop.kind === 'duration') {
      throw new UsageError(
        `load --export artillery: an unpaced timed run (${stop.seconds} s as fast as the target answers) has no Artillery form: its virtual users cannot loop until a time without JavaScript; give --rate R (calls per second over all connections) or --amount N`,
      );
    }
    const calls = Math.ceil(stop.requests / c);
    return {
      phases: [{ duration: 1, arrivalCount: c }],
      callsPerUser: calls,
      explained: [
        `${plural(c, 'connection', 'connections')}, ${stop.requests} requests, unpaced: ${plural(c, 'virtual user', 'virtual users')} (arrivalCount ${c} within the first second), each sending ${calls} calls in a row on its own keep-alive connection, the next when the last is answered: load's closed loop. ${c * calls} calls in all${c * calls === stop.requests ? '' : ` (${stop.requests} rounded up to a multiple of ${c})`}; a VU whose call fails stops, so a failing target gets fewer.`,
      ],
    };
  }
  const seconds = stop.kind === 'duration' ? Math.ceil(stop.seconds) : Math.max(1, Math.ceil(stop.requests / rate));
  const phase: Record<string, number> = stop.kind === 'duration' ? { duration: seconds, arrivalRate: rate, maxVusers: c } : { duration: seconds, arrivalCount: stop.requests, maxVusers: c };
  const arrivals = stop.kind === 'duration' ? `arrivalRate ${rate} for ${seconds} s` : `arrivalCount ${stop.requests} spread over ${seconds} s`;
  return {
    phases: [phase],
    callsPerUser: 1,
    explained: [
      `${plural(c, 'connection', 'connections')}, paced at ${rate} requests/s: ${arrivals}, each virtual user sending one call on a connection of its own (a TLS handshake each, which load's connections do once).`,
      `maxVusers ${c}: at most ${c} calls in flight, as load's ${plural(c, 'connection', 'connections')}; an arrival while ${c} are in flight is skipped (vusers.skipped), as load sends no call while every connection waits.`,
    ],
  };
}
