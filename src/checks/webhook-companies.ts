import type { Exchange } from '../client/exchange.ts';
import type { RuleId } from '../contract/rules.ts';
import { formValue, type ChangeKind, type NotificationForm } from '../contract/webhook-notification.ts';
import { formatDuration } from '../duration.ts';
import { NO_SECOND_COMPANY, type Profile } from '../profile/profile.ts';
import { createdId } from '../records/created-id.ts';
import type { Delivery } from '../webhooks/delivery.ts';
import type { RunSink } from '../webhooks/run-sink.ts';
import { describeAnswer, served, type CheckContext } from './context.ts';

// The second company's side of the webhook check (ISO-WEBHOOK-SCOPED; §1, §2.6, §4.5, §6): it
// subscribes a path of the run's sink of its own beside the first company's, so a notification is
// told apart by where it arrives, and each company's changes must reach its own path only; the
// first company's unsubscribe must leave the second's subscription working.

const RULE: RuleId = 'ISO-WEBHOOK-SCOPED';

/** The last segment of the URL the second company subscribes: the sink's URL with it appended. */
export const SECOND_COMPANY_SINK_PATH = 'clockcheck-second-company';

/** The requests the second company's token sends in the webhook check: subscribe, create, edit, unsubscribe. */
export const SECOND_COMPANY_WEBHOOK_REQUESTS = 4;

/** Whether the webhook check runs the second company's side: a second company, a sink, and a subscribe extension to subscribe it through. */
export function secondCompanySubscribes(profile: Profile): boolean {
  return profile.second_company !== undefined && profile.webhook?.sink !== undefined && profile.webhook.subscribe_path !== undefined;
}

/** Whether a delivery arrived at the second company's path of the sink (a query or a trailing slash aside). */
export function atSecondPath(delivery: Delivery): boolean {
  const path = (delivery.path.split('?')[0] ?? '').replace(/\/+$/, '');
  return path.endsWith(`/${SECOND_COMPANY_SINK_PATH}`);
}

/** A change one company made, as the check judges where its notification went. */
export interface CompanyChange {
  readonly change: Exclude<ChangeKind, 'deleted'>;
  readonly id: string;
  readonly exchange: Exchange;
}

/** The second company's subscription, once made: its URL and the user it created while both were subscribed. */
export interface SecondSide {
  readonly url: string;
  readonly subscribe: Exchange;
  readonly created: CompanyChange;
  edited?: CompanyChange;
  unsubscribed: boolean;
  /** The parts of the rule judged so far, and why the others were not (closeSecond). */
  judged: number;
  readonly unjudged: string[];
}

/** `value` with every string that holds `from` holding `to` instead (the rendered subscribe body's URL). */
function replaced(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((item) => replaced(item, from, to));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaced(v, from, to)]));
  return value;
}

/** A body the second company sends: the first's, with a fresh e-mail where it has one (an e-mail may be unique across companies). */
function freshBody(ctx: CheckContext, json: Record<string, unknown>): Record<string, unknown> {
  return 'email' in json ? { ...json, email: ctx.render('{{ unique.email }}') } : json;
}

/**
 * Subscribes the second company to its own path of the sink and creates a user there, while the
 * first company is subscribed too; null (the rule not judged, with why) when it cannot.
 */
export async function subscribeSecond(ctx: CheckContext, sink: RunSink, create: { path: string; json: Record<string, unknown> }): Promise<SecondSide | null> {
  const webhook = ctx.profile.webhook!;
  if (ctx.profile.second_company === undefined) return notJudged(ctx, NO_SECOND_COMPANY);
  if (!webhook.subscribe_path) return notJudged(ctx, 'the profile has no webhook.subscribe_path, so the second company cannot subscribe a URL of its own through the API');
  const rendered = ctx.render(webhook.subscribe_body);
  const url = new URL(SECOND_COMPANY_SINK_PATH, sink.url.endsWith('/') ? sink.url : `${sink.url}/`).href;
  const body = replaced(rendered, sink.url, url);
  if (JSON.stringify(body) === JSON.stringify(rendered)) return notJudged(ctx, `webhook.subscribe_body does not carry the sink's URL ({{ sink.url }}), so the second company cannot subscribe a path of its own`);
  const subscribe = await ctx.send({ method: 'POST', path: webhook.subscribe_path, json: body, auth: 'second-token' });
  if (!served(subscribe)) return notJudged(ctx, `the second company's subscribe (POST ${webhook.subscribe_path} with its token) ${describeAnswer(subscribe)}`);
  const created = await ctx.send({ method: 'POST', path: create.path, json: freshBody(ctx, create.json), auth: 'second-token' });
  const id = served(created) ? createdId(created.response?.json, ctx.profile) : undefined;
  if (id === undefined) {
    await unsubscribeSecond(ctx, { unsubscribed: false });
    return notJudged(ctx, `the second company's create to be notified of (POST ${create.path} with its token) ${served(created) ? 'answered without an ID the profile locates' : describeAnswer(created)}`);
  }
  return { url, subscribe, created: { change: 'created', id: String(id), exchange: created }, unsubscribed: false, judged: 0, unjudged: [] };
}

/** After the first company's unsubscribe: the second company edits its user, which must still be notified at its path. */
export async function editSecond(ctx: CheckContext, side: SecondSide, edit: { path: string; json: Record<string, unknown> }): Promise<void> {
  const path = edit.path.replace('{id}', encodeURIComponent(side.created.id));
  const edited = await ctx.send({ method: 'PUT', path, json: freshBody(ctx, edit.json), auth: 'second-token' });
  if (served(edited)) side.edited = { change: 'updated', id: side.created.id, exchange: edited };
  else side.unjudged.push(`whether the first company's unsubscribe left the second's subscription working: the second company's edit (PUT ${path} with its token) ${describeAnswer(edited)}`);
}

/** The second company's unsubscribe (§4.5), once: the check leaves neither company subscribed. */
export async function unsubscribeSecond(ctx: CheckContext, side: { unsubscribed: boolean }): Promise<void> {
  if (side.unsubscribed) return;
  side.unsubscribed = true;
  await ctx.send({ method: 'DELETE', path: '/webhooks/subscription/unsubscribe', auth: 'second-token' });
}

function notJudged(ctx: CheckContext, why: string): null {
  ctx.notJudged(RULE, why);
  return null;
}

/** Whether a delivery names the change: its ID and operation (published: `<event>_<change>`). */
export function namesChange(delivery: Delivery, form: NotificationForm, event: string, change: CompanyChange): boolean {
  return delivery.names.id === change.id && delivery.names.operation === formValue(form.operation.value, event, change.change);
}

/**
 * After the first company's unsubscribe and the second's edit: the edit's notification must reach
 * the second company's path within delivery_within, where its create's did (which shows its
 * subscription delivers). Waits before the second company unsubscribes.
 */
export async function judgeSecondStillNotified(ctx: CheckContext, sink: RunSink, event: string, side: SecondSide, createdArrived: Delivery | null, unsubscribe: Exchange): Promise<void> {
  const edited = side.edited;
  if (edited === undefined) return;
  if (createdArrived === null) {
    side.unjudged.push(`whether the first company's unsubscribe left the second's subscription working: no notification of the second company's create of ${side.created.id} reached ${side.url} within ${formatDuration(sink.deliveryWithinMs)}, so its subscription was never seen delivering`);
    return;
  }
  const withinMs = Math.min(sink.deliveryWithinMs, ctx.remainingMs());
  const arrived = await sink.sink.waitFor((d) => atSecondPath(d) && namesChange(d, sink.form, event, edited), withinMs, createdArrived.id);
  if (arrived === null && withinMs < sink.deliveryWithinMs) {
    side.unjudged.push(`whether the first company's unsubscribe left the second's subscription working: the run's time limit ended the wait after ${formatDuration(withinMs)}`);
    return;
  }
  side.judged++;
  if (arrived !== null) return;
  ctx.fail(
    RULE,
    `the second company's subscription still notified after the first company's unsubscribe (§2.6: each company has its own webhook configuration; §4.5 deletes the caller's): a notification of ${event} ${edited.id} as ${formValue(sink.form.operation.value, event, 'updated')} at ${side.url} within ${formatDuration(sink.deliveryWithinMs)}`,
    `none arrived after the first company's DELETE /webhooks/subscription/unsubscribe answered ${unsubscribe.response?.status ?? 'nothing'}; its create's had (#${createdArrived.id})`,
    [side.subscribe, unsubscribe, edited.exchange, ctx.keep(sink.exchangeOf(createdArrived))],
  );
}

/**
 * Every delivery since `after` that arrived at one company's path naming a change of the other's:
 * a failure each. Each way is judged once the receiving company's path was seen delivering (its own
 * change notified there: `firstSeen`, `secondSeen`), else silence there shows nothing. Where IDs are
 * not global (second_company.ids), an ID that one of the receiving company's own changes also has
 * is not judged (it may be its own record's).
 */
export function judgeCrossings(ctx: CheckContext, sink: RunSink, event: string, after: number, side: SecondSide, seen: { readonly first: boolean; readonly second: boolean }, first: readonly CompanyChange[]): void {
  const second = [side.created, ...(side.edited ? [side.edited] : [])];
  const global = ctx.profile.second_company?.ids === 'global';
  const crossed = (to: readonly CompanyChange[], from: readonly CompanyChange[]) => from.filter((c) => global || !to.some((own) => own.id === c.id));
  const ways = [
    { atSecond: true, seen: seen.second, foreign: crossed(second, first), owner: 'the first company', receiver: 'the second company' },
    { atSecond: false, seen: seen.first, foreign: crossed(first, second), owner: 'the second company', receiver: 'the first company' },
  ];
  for (const way of ways) {
    if (!way.seen) {
      side.unjudged.push(`whether ${way.owner}'s changes reach ${way.receiver}'s URL: no change of ${way.receiver}'s own was seen notified at its URL`);
      continue;
    }
    side.judged++;
    const wrong = sink.sink.deliveries.filter((d) => d.id > after && atSecondPath(d) === way.atSecond && way.foreign.some((c) => namesChange(d, sink.form, event, c)));
    if (wrong.length === 0) continue;
    const changes = way.foreign.filter((c) => wrong.some((d) => namesChange(d, sink.form, event, c)));
    ctx.fail(
      RULE,
      `notifications of ${way.owner}'s changes go to its own subscription only, never to ${way.receiver}'s URL (§1, §2.6)`,
      `${way.receiver}'s URL received ${wrong.length} notification${wrong.length === 1 ? '' : 's'} of ${way.owner}'s ${event} ${[...new Set(changes.map((c) => c.id))].join(', ')}: ${wrong.slice(0, 3).map((d) => `#${d.id} ${d.names.operation ?? ''} of ${d.names.id}`).join(', ')}`,
      [...changes.slice(0, 2).map((c) => c.exchange), ...wrong.slice(0, 3).map((d) => ctx.keep(sink.exchangeOf(d)))],
    );
  }
}

/** The rule's verdict once the check is done: left out when no part of it was judged, else a note for each part that was not. */
export function closeSecond(ctx: CheckContext, side: SecondSide): void {
  if (side.judged === 0) ctx.notJudged(RULE, side.unjudged.join('; ') || 'nothing of it was observed');
  else for (const why of side.unjudged) ctx.note(`${RULE} in part not judged: ${why}`);
}
