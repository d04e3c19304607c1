import { sleepUntil, within, type Clock } from '../../clock.ts';
import type { Exchange } from '../../client/exchange.ts';
import type { PacedTraffic } from '../phase-deps.ts';

/**
 * Lets paced checks' calls go (`count` at most) until `until` (or, with a count, until they are all
 * answered); then the gate closes and the calls in flight are answered. Returns the paced calls made.
 */
export async function pacedCalls(clock: Clock, traffic: PacedTraffic, count: number, until: number): Promise<readonly Exchange[]> {
  const watch = traffic.watch();
  traffic.admit(count);
  if (count === Infinity) await sleepUntil(clock, until);
  else await within(clock, traffic.untilIdle(), until - clock.now());
  traffic.hold();
  await traffic.untilIdle();
  return watch.stop();
}
