import { formatDuration } from '../duration.ts';
import { formatRateLimit } from '../contract/rate-limit.ts';
import type { PlannedCheck, RunPlan } from './run-plan.ts';
import { countText, plannedWrites, type PlannedWrites } from './plan-writes.ts';

/** Where the plan would be sent, and at what limit: what `--plan` prints above the checks. */
export interface PlanTarget {
  /** The spec's `{base_url}`, or "embedded reference server". */
  readonly target: string;
  readonly limit: number;
  readonly windowMs: number;
  /** `--create-admin-users`: the run may create admin users for a check's need. */
  readonly createAdmins?: boolean;
}

/** The plan as `clockcheck run --plan --format json` prints it. */
export interface PlanDocument {
  readonly target: string;
  readonly rateLimit: { readonly limit: number; readonly windowMs: number };
  readonly requests: number;
  readonly pacedRequests: number;
  /** The rate limit the paced requests go at: the target's, or the embedded server's quick window. */
  readonly pacedAt: { readonly limit: number; readonly windowMs: number };
  readonly etaMs: number;
  readonly checks: readonly PlannedCheck[];
  /**
   * The phase: its own requests, the windows and time it adds, the paced requests it carries in its
   * windows, and the check it starts after (null: after all the paced checks, alone).
   */
  readonly rateLimitPhase: {
    readonly checks: readonly string[];
    readonly requests: number;
    readonly windows: number;
    readonly ms: number;
    readonly carried: number;
    readonly startsAfter: string | null;
  } | null;
  /** The records the run would leave on the target: the spec has no delete for users, timesheets or breaks. */
  readonly writes: PlannedWrites;
}

export function planDocument(plan: RunPlan, where: PlanTarget): PlanDocument {
  const phaseChecks = plan.checks.filter((c) => c.kind === 'rate-limit').map((c) => c.id);
  return {
    target: where.target,
    rateLimit: { limit: where.limit, windowMs: where.windowMs },
    requests: plan.requests,
    pacedRequests: plan.pacedRequests,
    pacedAt: plan.pacedAt,
    etaMs: Math.round(plan.etaMs),
    // The shared parts' keys are the chooser's (templates as JSON), not the reader's.
    checks: plan.checks.map(({ shared: _shared, ...check }) => check),
    rateLimitPhase: phaseChecks.length === 0 ? null : { checks: phaseChecks, requests: plan.rateLimit.requests, windows: plan.rateLimit.windows, ms: plan.rateLimit.ms, carried: plan.rateLimit.carried, startsAfter: phaseStartsAfter(plan) },
    writes: plannedWrites(plan, where.createAdmins ?? false),
  };
}

/**
 * The plan for people: one line per check (requests, ID, rules), the rate-limit phase as one line
 * with its windows, and the totals with the ETA at the target's limit.
 */
export function planText(plan: RunPlan, where: PlanTarget): string {
  const doc = planDocument(plan, where);
  const limit = formatRateLimit({ limit: where.limit, windowMs: where.windowMs });
  const idWidth = Math.max(...doc.checks.map((c) => c.id.length), 20);
  const row = (requests: string, id: string, rules: string) => `${requests.padStart(8)}  ${id.padEnd(idWidth)}  ${rules}`;
  const lines = [`plan: ${doc.target}, at ${limit} (nothing sent)`, row('requests', 'check', 'rules')];
  for (const check of doc.checks) {
    const requests = check.kind === 'rate-limit' ? 'phase' : check.kind === 'monitor' ? '-' : check.skip !== undefined ? 'skip' : String(check.requests);
    const after =
      check.skip !== undefined
        ? ` (skipped: ${check.skip})`
        : [
            check.waitMs ? ` (then waits ${formatDuration(check.waitMs)})` : '',
            check.watchMs ? ` (then watches ${formatDuration(check.watchMs)} while the run goes on)` : '',
            check.kind === 'closing-bursts' ? ` (after the run's last call, two bursts of ${check.requests / 2} at once: unpaced, about ${formatDuration(check.burstMs ?? 0)}, no wait)` : '',
          ].join('');
    lines.push(row(requests, check.id, `${check.rules.join(' ')}${after}`));
  }
  const phase = doc.rateLimitPhase;
  if (phase) {
    lines.push(
      row(String(phase.requests), 'rate-limit phase', `${phase.checks.length} checks, ${formatWindows(phase.windows)} (${formatDuration(phase.ms)}) added, ${phaseWhere(phase)}`),
    );
  }
  const closing = doc.checks.reduce((n, c) => n + (c.kind === 'closing-bursts' ? c.requests : 0), 0);
  const ownWindow = doc.checks.reduce((n, c) => n + (c.ownWindow ?? 0), 0);
  lines.push(
    `${doc.requests} requests: ${doc.pacedRequests} paced at ${formatRateLimit(doc.pacedAt)}${ownWindow > 0 ? `, ${ownWindow} in the second company's own window` : ''}${phase ? `, ${phase.requests} in the rate-limit phase` : ''}${closing > 0 ? `, ${closing} in the closing bursts` : ''}; ETA ${formatDuration(doc.etaMs)}`,
    ...writesText(doc.writes),
  );
  return lines.join('\n');
}

/** The check the phase starts after (the paced checks after it carry its windows): null when it runs alone after them all, or first. */
function phaseStartsAfter(plan: RunPlan): string | null {
  const { at } = plan.rateLimit;
  if (at === null || at === 0) return null;
  const units = [...plan.scenarios.map((s) => s.id), ...plan.families.map((f) => `properties/${f.name}`)];
  return units[at - 1] ?? null;
}

function phaseWhere(phase: NonNullable<PlanDocument['rateLimitPhase']>): string {
  if (phase.carried === 0) return 'alone, after the paced checks';
  return `beside the paced checks${phase.startsAfter ? ` from after ${phase.startsAfter}` : ''}, carrying ${phase.carried} of their requests in its windows`;
}

/** The permanent writes, for people: what the scenarios and the generated cases create, and at most what the needs do. */
function writesText(writes: PlannedWrites): string[] {
  const lines = [
    `permanent writes (the spec has no delete for users, timesheets or breaks, nor shows one for schedules): the scenarios create ${countText(writes.byScenarios)}`,
    `  generated cases create up to ${countText(writes.byGeneratedCases)} (each valid case the target accepts)`,
  ];
  const needs = countText(writes.forNeeds);
  if (needs !== 'none') lines.push(`  to meet the checks' needs the run creates up to ${needs}, fewer as the target holds them (it counts first)${writes.roles.length > 0 ? `; users of the roles ${writes.roles.join(', ')} where none is found` : ''}; never an admin without --create-admin-users`);
  return lines;
}

function formatWindows(windows: number): string {
  const rounded = Math.round(windows * 10) / 10;
  return `${rounded} window${rounded === 1 ? '' : 's'}`;
}
