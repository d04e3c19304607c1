import { SYSTEM_CLOCK } from '../clock.ts';

/**
 * The ETA of a run with this phase: until it starts, the paced requests it does not carry, as the
 * pacer estimates them, and its span; once it started, what is left of its span and those paced
 * requests still to come (`remaining` counts down as calls go).
 */
export function estimateWithPhase(
  pacedMs: (requests: number) => number,
  plan: { readonly requests: number; readonly carried: number; readonly spanMs: number },
  phaseStartedAt: () => number | null,
): (remaining: number) => number {
  return (remaining) => {
    const startedAt = phaseStartedAt();
    const paced = pacedMs(Math.max(0, remaining - plan.requests - plan.carried));
    return paced + (startedAt === null ? plan.spanMs : Math.max(0, startedAt + plan.spanMs - SYSTEM_CLOCK.now()));
  };
}
