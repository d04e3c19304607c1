import type { RuleId } from '../contract/rules.ts';
import type { FaultCatches } from './fault-catches.ts';
import type { PhaseVariant, RunPlan } from './run-plan.ts';

/** One thing the chooser takes or leaves whole: a scenario, a property family (at `requests` for one case), or one of the rate-limit phase's variants. */
export interface Unit {
  readonly ids: readonly string[];
  readonly rules: ReadonlySet<RuleId>;
  /** The fitted catalog faults its checks caught in the selftest (fault-catches.ts). */
  readonly faults: ReadonlySet<string>;
  /** Paced requests (for a family: its setup and one generated case). */
  readonly paced: number;
  /** Requests sent at once, unpaced (the closing bursts: rate-limit/refused-calls); their time is `waitMs`. Absent: none. */
  readonly unpaced?: number;
  /** For a variant of the rate-limit phase, what it costs (PhaseVariant): alone, or beside the chosen paced requests after its start. */
  readonly phase: Pick<PhaseVariant, 'alone' | 'beside'> | null;
  /** Whether its paced requests come after the rate-limit phase's start (the full plan's rateLimit.at), where the phase can carry them. */
  readonly afterPhaseStart: boolean;
  /** Time it waits beyond its requests (the webhook check's quiet period). */
  readonly waitMs: number;
  readonly family: boolean;
  /** Parts other checks may send for it (a pair baseline, a read-only setup): `paced` counts them; a unit already chosen with the same key sends them. */
  readonly shared?: readonly { readonly key: string; readonly requests: number }[];
}

/** The plan's checks as the chooser takes them: each scenario and family alone, the rate-limit checks as one phase. */
export function planUnits(plan: RunPlan, catches: FaultCatches): Unit[] {
  const units: Unit[] = [];
  const caught = (ids: readonly string[]) => new Set(ids.flatMap((id) => catches[id] ?? []));
  // The scenarios from the phase's start on, and every family (they come after the scenarios); none when the plan runs the phase alone.
  const { at } = plan.rateLimit;
  const after = new Set(at === null ? [] : plan.scenarios.slice(at).map((s) => s.id));
  for (const check of plan.checks) {
    // A watch overlaps the checks after it, but may be last: counted whole, so a budget is never overrun.
    // A check whose shared part an earlier one sends is costed with it; the chooser takes it off when it keeps the other one.
    const shared = check.shared ?? [];
    const paced = check.requests + shared.reduce((n, part) => n + (part.sentEarlier ? part.requests : 0), 0);
    if (check.kind === 'scenario' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced, phase: null, afterPhaseStart: after.has(check.id), waitMs: (check.waitMs ?? 0) + (check.watchMs ?? 0), family: false, shared });
    // The stateful family: its cap, after the families (not carried by the phase, as the plan places it).
    if (check.kind === 'sequence' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: check.requests, phase: null, afterPhaseStart: false, waitMs: 0, family: false });
    // The read-back: its reads for everything the full plan writes (a plan that writes less reads less); taken first (cover).
    // Not carried by the phase: the plan places the phase by the scenarios' and families' requests alone.
    if (check.kind === 'read-back' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: check.requests, phase: null, afterPhaseStart: false, waitMs: 0, family: false });
    // The closing bursts: their requests at once after everything else, their time the bursts' (not carried, not paced).
    if (check.kind === 'closing-bursts' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: 0, unpaced: check.requests, phase: null, afterPhaseStart: false, waitMs: check.burstMs ?? 0, family: false });
    if (check.kind === 'property') {
      // One case, and the setup call if the family needs one (its planned requests beyond its cases); a family replaying its failing case, that case.
      const replays = plan.casePaths[check.id.slice('properties/'.length)] !== undefined;
      units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: replays ? check.requests : 1 + check.requests - plan.casesPerFamily, phase: null, afterPhaseStart: at !== null, waitMs: 0, family: !replays });
    }
  }
  // The isolation checks: one unit (their probes share the records both companies write), the requests on the first.
  const isolation = plan.checks.filter((c) => c.kind === 'isolation' && c.skip === undefined);
  if (isolation.length > 0) units.push({ ids: isolation.map((c) => c.id), rules: new Set(isolation.flatMap((c) => c.rules)), faults: caught(isolation.map((c) => c.id)), paced: isolation.reduce((n, c) => n + c.requests, 0), phase: null, afterPhaseStart: false, waitMs: 0, family: false });
  // The phase: one unit per variant (a larger one replaces a smaller one in a cover).
  const rateLimit = plan.checks.filter((c) => c.kind === 'rate-limit');
  for (const variant of plan.rateLimit.variants) {
    const checks = rateLimit.filter((c) => (variant.ids as readonly string[]).includes(c.id));
    if (checks.length === 0) continue;
    units.push({
      ids: checks.map((c) => c.id),
      rules: new Set(checks.flatMap((c) => c.rules)),
      faults: caught(checks.map((c) => c.id)),
      paced: 0,
      phase: variant,
      afterPhaseStart: false,
      waitMs: 0,
      family: false,
    });
  }
  return units;
}
