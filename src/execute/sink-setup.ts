import { ClockcheckError } from '../errors.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import { render } from '../scenarios/template.ts';
import { referencedPaths } from '../input/template-syntax.ts';
import { profileForReport, type Profile } from '../profile/profile.ts';
import { startRunSink, type RunSink, type SinkProfile } from '../webhooks/run-sink.ts';
import type { RunTransport } from './run-transport.ts';

// The webhook sink of a run (profile webhook.sink): whether the plan needs it, starting it, the
// profile its templates read, and what it saw.

/** Whether a scenario uses the run's webhook sink: the webhook check, or the sink (or the subscribe body made from it) in a template. */
export function usesSink(loaded: LoadedScenario): boolean {
  const { scenario } = loaded;
  const steps = [...scenario.setup, ...(scenario.steps ?? [])];
  if (steps.some((step) => 'check' in step && step.check === 'webhook-notifications')) return true;
  return referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair]).some((p) => p.startsWith('sink.') || p.startsWith('profile.webhook'));
}

/** Starts the run's sink; a sink that cannot listen (a port in use, a missing certificate) is a usage error naming the profile key. */
export async function startSinkOrExplain(webhook: SinkProfile, secret: string | null, nextExchangeId: () => number, transport: RunTransport): Promise<RunSink> {
  try {
    return await startRunSink(webhook, { secret, redactor: transport.client.redactor, nextExchangeId });
  } catch (error) {
    await transport.close();
    throw new ClockcheckError('CLOCKCHECK_LISTEN', `webhook.sink: cannot start the sink on ${webhook.sink.listen}${webhook.sink.tls ? ' with webhook.sink.tls' : ''}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The profile as templates read it: with a sink, `webhook.subscribe_body` rendered (its
 * `{{ sink.url }}` and `{{ sink.secret }}` filled), so a scenario that sends it subscribes the sink.
 * It goes into requests only, which redact the secret; the report's profile is profileForReport's.
 */
export function templateProfile(profile: Profile, sink: RunSink | null, secret: string | null): Record<string, unknown> {
  const copy = profileForReport(profile);
  if (!sink || !profile.webhook) return copy;
  const context = { fixtures: {}, vars: {}, profile: {}, companyTimezone: profile.company_timezone, dates: { year: 2000, day: 1 }, unique: () => ({ email: '', name: '', token: '' }), sink: { url: sink.url, secret } };
  return { ...copy, webhook: { ...(copy.webhook as object), subscribe_body: render(profile.webhook.subscribe_body, context) } };
}

/** What the run's sink saw, for the report's notes. */
export function sinkNote(sink: RunSink, madeSecret: boolean): string {
  const refused = Object.entries(sink.sink.refused).map(([why, n]) => `${n} ${why}`);
  return [
    `the webhook sink at ${sink.url} received ${sink.sink.lastId} deliveries`,
    refused.length > 0 ? ` and refused ${refused.join(', ')}` : '',
    madeSecret ? '; the subscription secret was made for this run' : '',
  ].join('');
}
