import type { RuleId } from '../contract/rules.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { Pacer } from '../client/pacer.ts';
import type { Profile } from '../profile/profile.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import type { RateLimitCheckId } from '../ratelimit/rate-limit-checks.ts';
import type { SecretsCheckId } from '../records/secrets-watch.ts';
import type { IsolationCheckId } from '../isolation/isolation-check.ts';

// The run as planned (plan.ts makes it, budget.ts restricts it, execute/ runs it): its checks, their
// requests and waits, the rate-limit phase's place and variants, and the pace of its calls.

/** One check of a plan, with the requests it will send. */
export interface PlannedCheck {
  readonly id: string;
  readonly kind: 'preflight' | 'scenario' | 'property' | 'sequence' | 'isolation' | 'rate-limit' | 'monitor' | 'read-back' | 'closing-bursts';
  readonly rules: readonly RuleId[];
  /**
   * Requests it sends (the preflight: its GET and the census's, one page of each list the checks' needs name). The rate-limit checks share the phase's bursts, so theirs is 0 and the phase's
   * requests are the plan's `rateLimit.requests`; the monitor sends nothing (it watches every call).
   */
  readonly requests: number;
  /**
   * A check of bursts after the run's last paced call (`closing-bursts`: rate-limit/refused-calls):
   * the time they take, ms. Its `requests` go at once, unpaced, and nothing waits after them.
   */
  readonly burstMs?: number;
  /**
   * Of its `requests`, those a second company's token sends in a window of its own
   * (second_company.rate_limit: per-token): paced there, beside the run's, so they add no time.
   */
  readonly ownWindow?: number;
  /** Time it waits beyond its requests before the run goes on; absent: none. */
  readonly waitMs?: number;
  /**
   * The parts it may share with other checks of the run: its pair's baseline (SharedBaselines), its
   * read-only setup (SharedSetups). `requests` leaves out a part an earlier check of the plan sends
   * (`sentEarlier`); run without that check, it sends the part itself.
   */
  readonly shared?: readonly SharedPart[];
  /**
   * Time it goes on waiting after its last request while the run goes on with the next checks (the
   * webhook check's quiet period, its scenario's last step); the run ends no sooner than this after it.
   */
  readonly watchMs?: number;
  /** Why the run will skip it whatever the target answers (the profile lacks what it needs, --read-only): it costs nothing, covers nothing. */
  readonly skip?: string;
}

/** A part of a check that other checks of a run may send for it: its key, its requests, and whether an earlier check of the plan sends it. */
export interface SharedPart {
  readonly key: string;
  readonly requests: number;
  readonly sentEarlier: boolean;
}

/** The run as planned: the checks it will run, in order, and the requests they cost. */
export interface RunPlan {
  /** Every check, in run order: the preflight, the scenarios, the property families, the rate-limit phase, the monitor, the closing bursts. */
  readonly checks: readonly PlannedCheck[];
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
  /** Generated cases each family sends (the budget shared evenly among those without a case path). */
  readonly casesPerFamily: number;
  /** Families that replay one failing case instead (PlanOptions.casePaths). */
  readonly casePaths: Readonly<Record<string, string>>;
  /** The rate-limit checks selected (the phase's and the refused calls'), and the phase's requests and time. */
  readonly rateLimit: {
    readonly selected: (id: RateLimitCheckId) => boolean;
    /** Whether a check of the phase is selected (PHASE_CHECK_IDS). */
    readonly any: boolean;
    /** The phase's own requests (PlannedPhase). */
    readonly requests: number;
    /** The time it adds beyond the paced requests it carries (PlannedPhase.ms). */
    readonly ms: number;
    /** `ms` in the profile's windows. */
    readonly windows: number;
    /** The paced requests that go inside its windows, and from its boundary until they go on at their pace (PlannedPhase). */
    readonly carried: number;
    readonly spanMs: number;
    /**
     * Where it starts among the paced checks (an index into `scenarios` then `families`): after the
     * last scenario that sends calls without the run's token (a limiter may not count them toward
     * it), when at least a window of paced requests and some more follow; null: after them all.
     */
    readonly at: number | null;
    /**
     * The smaller phases a budget may keep instead (budget.ts), each with its requests and time:
     * the boundary and the reset (inseparable: the polls go whenever the windows are judged), then
     * the sliding window too, then the page sizes too; only the selected checks, the whole selection last.
     */
    readonly variants: readonly PhaseVariant[];
  };
  /** Whether the run-wide rate monitor and the token-form check of the preflight are reported. */
  readonly monitor: boolean;
  /** Whether the run-wide watch of created records' IDs (ID-INTEGER) is reported. */
  readonly createdIds: boolean;
  /** Whether the run-wide judging of every answer by the rules an answer shows alone is reported (answers-watch.ts). */
  readonly everyAnswer: boolean;
  /** The run-wide watches of the secrets answers never carry that are reported (secrets-watch.ts). */
  readonly secrets: readonly SecretsCheckId[];
  /** Whether what the run writes is read back at its end (STORE-*), and the requests planned for it. */
  readonly readBack: { readonly on: boolean; readonly requests: number };
  /** Whether the stateful family (properties/user-sequences) runs, after the other families. */
  readonly userSequences: boolean;
  /** The isolation checks between two companies that are planned (run as one unit after the stateful family). */
  readonly isolation: readonly IsolationCheckId[];
  readonly tokenFormCheck: boolean;
  /** The preflight sends the second company's token once (a check of the plan sends with it): refused, the run is not made. */
  readonly secondTokenPreflight: boolean;
  /** `--read-only`: the scenarios that change data are planned skipped. */
  readonly readOnly: boolean;
  /** Requests the run is expected to make, the preflight included. */
  readonly requests: number;
  /** Of those, the ones paced at the target's limit (all but the rate-limit phase's and the closing bursts'). */
  readonly pacedRequests: number;
  /** The rate limit they are paced at: the profile's, or PlanOptions.pacedAt. */
  readonly pacedAt: RateLimitSetting;
  /** The run's expected duration: the paced requests as the pacer spaces them at `pacedAt`, plus the phase. */
  readonly etaMs: number;
}

/**
 * A rate-limit phase of some of the selected checks: which, and what it costs: `requests` and `ms`
 * (its own requests and the time it adds) where the plan starts it, `alone` after all the paced
 * checks, and `beside` them, for a budget to cost it by the paced requests it chooses to come after
 * the phase's start: its own requests and span when it carries none of them, and how many it can
 * carry (plannedRateLimitPhase).
 */
export interface PhaseVariant {
  readonly ids: readonly RateLimitCheckId[];
  readonly requests: number;
  readonly ms: number;
  readonly alone: { readonly requests: number; readonly ms: number };
  readonly beside: { readonly requests: number; readonly spanMs: number; readonly room: number };
}

/** A pacer for a plan's paced calls: at `pacedAt`, else at the profile's limit. */
export function pacerFor(profile: Profile, pacedAt?: RateLimitSetting): Pacer {
  return new Pacer(pacedAt ?? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window });
}
