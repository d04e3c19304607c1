import { z } from 'zod';
import { builtinCheck, describeAnswer, served, type BuiltinCheck, type CheckContext } from './context.ts';
import { pathArg } from './args.ts';
import { createdId } from '../records/created-id.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Delivery } from '../webhooks/delivery.ts';
import type { RunSink } from '../webhooks/run-sink.ts';
import { formatDuration } from '../duration.ts';
import { formValue, hasPublishedBody, type ChangeKind as NotifiedChange, type NotificationForm } from '../contract/webhook-notification.ts';
import { atSecondPath, closeSecond, editSecond, judgeCrossings, judgeSecondStillNotified, namesChange, subscribeSecond, unsubscribeSecond, type SecondSide } from './webhook-companies.ts';

const Change = z.strictObject({
  /** Creates the resource (its ID is read from the answer as any created ID is). */
  create: z.strictObject({ path: pathArg, json: z.record(z.string(), z.unknown()) }),
  /** Edits it with PUT; `{id}` in the path is the created ID. */
  edit: z.strictObject({ path: pathArg.refine((p) => p.includes('{id}'), 'must hold {id}'), json: z.record(z.string(), z.unknown()) }),
});

const Args = z.strictObject({
  /** The category of these changes: `{event}` in the profile's notification form (published: `payload.event`, and `operation` `<event>_created` / `_updated`). */
  event: z.string().min(1).default('users'),
  /** The changes made while the sink is subscribed: each must be notified. */
  subscribed: Change,
  /** The changes made after unsubscribe (another resource, so no earlier notification can be taken for one of them): none may be notified. */
  unsubscribed: Change,
});

/** §4.5: the spec's unsubscribe operation. */
const UNSUBSCRIBE_PATH = '/webhooks/subscription/unsubscribe';

/** The changes the check makes (contract/webhook-notification.ts names `deleted` too). */
type ChangeKind = Exclude<NotifiedChange, 'deleted'>;

/** `#3 users_created of 812`, for a reason. */
function describeDelivery(delivery: Delivery): string {
  const { id, operation } = delivery.names;
  if (id === null && operation === null) return `#${delivery.id} (naming no ID and no operation)`;
  return `#${delivery.id} ${operation ?? 'without operation'} ${id === null ? 'naming no ID' : `of ${id}`}`;
}

/** The form a notification is judged against, in a few words. */
function describeForm(form: NotificationForm, event: string): string {
  if (hasPublishedBody(form)) return 'the published shape {payload: {event, data: {id, operation, last_updated_at}}}';
  const parts = [`the ID at ${form.id}`, `the operation at ${form.operation.at}`, ...(form.event ? [`"${formValue(form.event.value, event)}" at ${form.event.at}`] : [])];
  return `the profile's form (${parts.join(', ')})`;
}

/** A change the check made: what it was, to which resource, and the exchange that made it. */
interface MadeChange {
  readonly change: ChangeKind;
  readonly id: string;
  readonly exchange: Exchange;
}

/**
 * WH-NOTIFICATION-ARRIVES, WH-SIGNATURE, WH-PAYLOAD-SHAPE, WH-NOTIFICATIONS-STOP (§4.5, §6), through
 * the run's sink (profile `webhook.sink`). Subscribes the sink (through the profile's subscribe
 * extension; without one the sink must already be subscribed outside the API), creates and edits a
 * resource, and requires each change notified within `delivery_within`: a notification naming the
 * resource's ID and the change (published form: `<event>_created` / `_updated`), of the form the
 * profile declares (`webhook.notification`, the published one by default), signed with the secret
 * (when the profile names one and the form signs). Then unsubscribes (§4.5), creates and edits
 * another resource, and requires that nothing naming it arrives for `quiet_period` (while the run
 * goes on with its next checks: `doneSending`). Deliveries that name other resources
 * (other clients of a shared target, a retry in flight) are not judged. Silence after unsubscribe
 * is evidence only once notifications were seen arriving, so without any the stop is not judged.
 * With a second company (ISO-WEBHOOK-SCOPED, webhook-companies.ts), the second company subscribes a
 * path of the sink of its own and creates a user while both are subscribed, and edits it after the
 * first company's unsubscribe: each company's changes must reach its own path only, and the second's
 * edit must still be notified; the second company unsubscribes before the quiet period.
 */
const notifications = builtinCheck(Args, async (ctx, args) => {
  const sink = ctx.sink;
  if (!sink) return ctx.skip('the profile has no webhook.sink: notifications cannot be observed');
  const webhook = ctx.profile.webhook!;
  const unreachable = await sink.probe();
  if (unreachable) ctx.precondition(unreachable);
  if (sink.signaturesUnchecked) ctx.notJudged('WH-SIGNATURE', sink.signaturesUnchecked);

  if (webhook.subscribe_path) {
    const subscribe = await ctx.send({ method: 'POST', path: webhook.subscribe_path, json: ctx.render(webhook.subscribe_body) });
    if (!served(subscribe)) ctx.precondition(`subscribing the sink (POST ${webhook.subscribe_path}) ${describeAnswer(subscribe)}: the notifications could not be observed`);
  }

  const before = sink.sink.lastId;
  const second = await subscribeSecond(ctx, sink, args.subscribed.create);
  try {
    await notifyAndStop(ctx, sink, args, before, second);
  } finally {
    // A precondition that ended the check still leaves the second company unsubscribed.
    if (second) await unsubscribeSecond(ctx, second);
  }
});

/** The first company's changes while subscribed and after unsubscribe, judged (the second company's beside them when it subscribed). */
async function notifyAndStop(ctx: CheckContext, sink: RunSink, args: z.output<typeof Args>, before: number, second: SecondSide | null): Promise<void> {
  const webhook = ctx.profile.webhook!;
  const made = await makeChanges(ctx, args.subscribed, 'while subscribed');
  const deliveryWithinMs = Math.min(sink.deliveryWithinMs, ctx.remainingMs());
  const secondCreated = second ? sink.sink.waitFor((d) => atSecondPath(d) && namesChange(d, sink.form, args.event, second.created), deliveryWithinMs, before) : Promise.resolve(null);
  const notified = await Promise.all(made.map((change) => sink.sink.waitFor((d) => !atSecondPath(d) && names(d, sink.form, args.event, change), deliveryWithinMs, before)));
  if (deliveryWithinMs < sink.deliveryWithinMs && notified.some((d) => d === null)) {
    ctx.precondition(`the run's time limit ended the wait for the notifications after ${formatDuration(deliveryWithinMs)} of the profile's ${formatDuration(sink.deliveryWithinMs)}`);
  }
  const arrivedAtAll = sink.sink.lastId > before;
  if (!arrivedAtAll && !webhook.subscribe_path) {
    ctx.precondition(
      `no notification reached the sink within ${formatDuration(sink.deliveryWithinMs)} of ${made.map((m) => `the ${m.change === 'created' ? 'create' : 'edit'} of ${m.id}`).join(' and ')}: the profile has no webhook.subscribe_path, so ${sink.url} must be subscribed outside the API (in the service's web app) before the run`,
    );
  }
  made.forEach((change, i) => judgeArrival(ctx, sink, args.event, change, notified[i] ?? null, before));

  const secondSeen = await secondCreated;
  if (!notified.some((d) => d !== null)) {
    ctx.notJudged('WH-NOTIFICATIONS-STOP', 'no notification of a change arrived while subscribed, so silence after unsubscribe would show nothing');
    if (second) {
      second.unjudged.push("whether the first company's unsubscribe left the second's subscription working: the first company's own notifications never arrived");
      judgeCrossings(ctx, sink, args.event, before, second, { first: false, second: secondSeen !== null }, made);
      closeSecond(ctx, second);
    }
    return;
  }
  const unsubscribe = await ctx.send({ method: 'DELETE', path: UNSUBSCRIBE_PATH });
  if (!served(unsubscribe)) ctx.precondition(`DELETE ${UNSUBSCRIBE_PATH} ${describeAnswer(unsubscribe)}: whether notifications stop could not be observed`);
  const stopped = sink.sink.lastId;
  const after = await makeChanges(ctx, args.unsubscribed, 'after unsubscribe');
  if (second) {
    await editSecond(ctx, second, args.subscribed.edit);
    await judgeSecondStillNotified(ctx, sink, args.event, second, secondSeen, unsubscribe);
    await unsubscribeSecond(ctx, second);
  }
  // The quiet period sends nothing: the run's next checks go on meanwhile.
  ctx.doneSending();
  const quietMs = Math.min(sink.quietPeriodMs, ctx.remainingMs());
  const late = await sink.sink.waitFor((d) => !atSecondPath(d) && after.some((change) => namesResource(d, sink.form, args.event, change.id)), quietMs, stopped);
  if (!late && quietMs < sink.quietPeriodMs) {
    ctx.notJudged('WH-NOTIFICATIONS-STOP', `the run's time limit ended the quiet period after ${formatDuration(quietMs)} of the profile's ${formatDuration(sink.quietPeriodMs)}`);
  }
  if (late) {
    ctx.fail(
      'WH-NOTIFICATIONS-STOP',
      `no notification of ${args.event} ${after[0]!.id}, created and edited after unsubscribe, within ${formatDuration(sink.quietPeriodMs)}`,
      `the sink received ${describeDelivery(late)} after unsubscribe answered ${unsubscribe.response?.status}`,
      [unsubscribe, ...after.map((m) => m.exchange), ctx.keep(sink.exchangeOf(late))],
    );
  }
  const others = sink.sink.deliveries.filter((d) => d.id > stopped && d !== late && !atSecondPath(d));
  if (others.length > 0) {
    ctx.note(`${others.length} deliveries arrived after unsubscribe naming none of the changes made after it (not judged: in flight before it, or another client's): ${others.slice(0, 5).map(describeDelivery).join(', ')}`);
  }
  if (second) {
    judgeCrossings(ctx, sink, args.event, before, second, { first: true, second: secondSeen !== null }, [...made, ...after]);
    closeSecond(ctx, second);
  }
}

/** The webhook check: it subscribes, creates, edits and unsubscribes, so it writes. */
export const webhookNotifications: BuiltinCheck<typeof Args> = { ...notifications, writes: true };

/** Creates a resource and edits it; each change must be served (else the check ends errored: nothing to be notified of). */
async function makeChanges(ctx: CheckContext, change: z.output<typeof Change>, when: string): Promise<MadeChange[]> {
  const created = await ctx.send({ method: 'POST', path: change.create.path, json: change.create.json });
  const id = served(created) ? createdId(created.response?.json, ctx.profile) : undefined;
  if (id === undefined) {
    ctx.precondition(`creating the resource to be notified of (${when}): POST ${change.create.path} ${served(created) ? 'answered without an ID the profile locates' : describeAnswer(created)}`);
  }
  const path = change.edit.path.replace('{id}', encodeURIComponent(String(id)));
  const edited = await ctx.send({ method: 'PUT', path, json: change.edit.json });
  if (!served(edited)) ctx.precondition(`editing the resource to be notified of (${when}): PUT ${path} ${describeAnswer(edited)}`);
  return [
    { change: 'created', id: String(id), exchange: created },
    { change: 'updated', id: String(id), exchange: edited },
  ];
}

/**
 * Whether a delivery may be of the resource: its ID, and an operation of its category (or none
 * readable): a notification of another category's record with the same ID is not one of it.
 */
function namesResource(delivery: Delivery, form: NotificationForm, event: string, id: string): boolean {
  const { operation } = delivery.names;
  return delivery.names.id === id && (operation === null || (['created', 'updated', 'deleted'] as const).some((change) => operation === formValue(form.operation.value, event, change)));
}

/** Whether a delivery names the change: its ID, and its operation (published: `<event>_<change>`). */
function names(delivery: Delivery, form: NotificationForm, event: string, change: MadeChange): boolean {
  return delivery.names.id === change.id && delivery.names.operation === formValue(form.operation.value, event, change.change);
}

/** The verdicts on one change's notification: arrived (or why not), its shape, its signature. */
function judgeArrival(ctx: CheckContext, sink: RunSink, event: string, change: MadeChange, delivery: Delivery | null, before: number): void {
  const what = `a notification of ${event} ${change.id} as ${formValue(sink.form.operation.value, event, change.change)}`;
  if (delivery) {
    const exchange = ctx.keep(sink.exchangeOf(delivery));
    const category = sink.form.event ? formValue(sink.form.event.value, event) : null;
    if (!delivery.payload.ok) ctx.fail('WH-PAYLOAD-SHAPE', `${what} of ${describeForm(sink.form, event)}`, delivery.payload.why, [exchange]);
    else if (category !== null && delivery.names.event !== category) ctx.fail('WH-PAYLOAD-SHAPE', `${what} with event "${category}"`, `event "${delivery.names.event}"`, [exchange]);
    if (!sink.signaturesUnchecked && typeof delivery.signature === 'object') ctx.fail('WH-SIGNATURE', `${what} signed with the subscription's secret`, delivery.signature.failed, [exchange]);
    return;
  }
  // Nothing named the change: either nothing came, or what came does not say which change it is.
  const arrived = sink.sink.deliveries.filter((d) => d.id > before && !atSecondPath(d));
  const sameResource = arrived.filter((d) => d.names.id === change.id);
  if (arrived.length === 0) {
    ctx.fail('WH-NOTIFICATION-ARRIVES', `${what} at ${sink.url} within ${formatDuration(sink.deliveryWithinMs)}`, 'no notification arrived', [change.exchange]);
  } else if (sameResource.length > 0) {
    const shown = sameResource.slice(0, 3);
    ctx.fail('WH-PAYLOAD-SHAPE', what, `the notifications of ${change.id} name other operations: ${shown.map(describeDelivery).join(', ')}`, [change.exchange, ...shown.map((d) => ctx.keep(sink.exchangeOf(d)))]);
  } else {
    const shown = arrived.slice(0, 3);
    ctx.fail(
      'WH-PAYLOAD-SHAPE',
      `${what} (a payload naming the resource that changed)`,
      `${arrived.length} notification${arrived.length === 1 ? '' : 's'} arrived, none naming ${change.id}: ${shown.map(describeDelivery).join(', ')}`,
      [change.exchange, ...shown.map((d) => ctx.keep(sink.exchangeOf(d)))],
    );
  }
}
