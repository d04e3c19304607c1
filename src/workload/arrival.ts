import type { Arrival } from './workload-file.ts';

/** Arrivals an open-model run schedules at most (300 s at the 10 000 flows/s cap would be three million). */
export const MAX_ARRIVALS = 1_000_000;

/**
 * When each flow of an open-model run starts, in ms from the run's start: phase after phase, at a
 * constant rate, or ramping linearly from `rate` to `rampTo` over the phase (k6's constant- and
 * ramping-arrival-rate executors, Artillery's arrivalRate and rampTo). The k-th arrival of a phase is
 * where the phase's cumulative count reaches k: N(t) = r0·t + (r1 − r0)·t²/(2d), solved for t. Times
 * do not depend on how fast the target answers: that is what keeps a slow target from hiding its
 * slowness (coordinated omission); a flow that cannot start because too many are in flight is
 * dropped and counted, not delayed.
 */
export function* arrivalTimes(phases: Extract<Arrival, { model: 'open' }>['phases']): Generator<number> {
  let offset = 0;
  let emitted = 0;
  for (const phase of phases) {
    const d = phase.durationMs / 1000;
    const r0 = phase.rate;
    const r1 = phase.rampTo ?? phase.rate;
    const total = ((r0 + r1) / 2) * d;
    for (let k = 0; k < total && emitted < MAX_ARRIVALS; k++) {
      let t: number;
      if (r1 === r0) t = k / r0;
      else {
        // a·t² + b·t − k = 0 with a = (r1 − r0)/(2d), b = r0: the root in [0, d].
        const a = (r1 - r0) / (2 * d);
        t = (-r0 + Math.sqrt(r0 * r0 + 4 * a * k)) / (2 * a);
      }
      if (t >= d) break;
      emitted++;
      yield offset + Math.round(t * 1000 * 1000) / 1000;
    }
    offset += phase.durationMs;
  }
}

/** How many flows an arrival schedules at most: the open model's arrivals, or the closed model's max_flows. */
export function maxFlows(arrival: Arrival): number {
  if (arrival.model === 'closed') return arrival.maxFlows;
  let n = 0;
  for (const _ of arrivalTimes(arrival.phases)) n++;
  return n;
}

/** How long the arrivals last, ms (the run's planned length, before its grace for the flows still in flight). */
export function arrivalSpanMs(arrival: Arrival): number {
  return arrival.model === 'closed' ? arrival.durationMs : arrival.phases.reduce((n, p) => n + p.durationMs, 0);
}

/** The arrival, for people: `open model: 10 flows/s for 30 s (at most 50 in flight)`. */
export function describeArrival(arrival: Arrival): string {
  if (arrival.model === 'closed') return `closed model: ${arrival.connections} connection${arrival.connections === 1 ? '' : 's'} for ${arrival.durationMs / 1000} s (at most ${arrival.maxFlows} flows)`;
  const phases = arrival.phases.map((p) => `${p.rampTo === null ? `${p.rate}` : `${p.rate}→${p.rampTo}`} flows/s for ${p.durationMs / 1000} s`);
  return `open model: ${phases.join(', then ')} (at most ${arrival.maxInFlight} in flight)`;
}
