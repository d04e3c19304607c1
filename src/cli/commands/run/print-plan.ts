import { embeddedProfile, QUICK_RATE_LIMIT, unstartedEmbeddedFacts } from '../../../embedded/embedded-profile.ts';
import { planDocument, planText } from '../../../plan/plan-text.ts';
import { withRateLimitOption, type RunInput } from './run-input.ts';

/** `run --plan`: what the run would do, at the target's limit, within any budget; nothing is sent. */
export async function printPlan(run: RunInput): Promise<number> {
  const { targetUrl, quick } = run;
  const planned = withRateLimitOption(targetUrl ? run.profile : { ...embeddedProfile(unstartedEmbeddedFacts()), waivers: run.profile.waivers }, run.rateLimit);
  const { planWithinBudget, budgetNote } = await import('../../../plan/budget.ts');
  const { plan, choice } = await planWithinBudget({ profile: planned, ...run.selection, readOnly: run.readOnly, ...(quick ? { pacedAt: QUICK_RATE_LIMIT } : {}) }, run.runBudget);
  const where = { target: targetUrl ?? 'the embedded reference server', limit: planned.rate_limit.limit, windowMs: planned.rate_limit.window, createAdmins: run.createAdminUsers };
  const budget = choice ? { note: budgetNote(choice), leftOut: choice.leftOut.map((c) => c.id) } : null;
  console.log(run.output.format === 'json' ? JSON.stringify({ ...planDocument(plan, where), budget }, null, 2) : `${planText(plan, where)}${budget ? `\n${budget.note}` : ''}`);
  return 0;
}
