import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import { ApiError, ok, validationError } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';
import { isLoopbackUrl } from '../webhook-delivery.ts';

/** https, or http on loopback (a local sink in tests); the secret signs the notifications. */
const subscribeBody = z.object({
  // zod runs the refinement even after the URL check failed: it must not throw on what is not a URL.
  url: z.url({ protocol: /^https?$/ }).refine((url) => url.startsWith('https:') || (URL.canParse(url) && isLoopbackUrl(new URL(url)))),
  secret: z.string().min(1).max(256).optional(),
});

/**
 * Extension (the spec shows no subscribe operation, §4.5): POST /webhooks/subscription `{url, secret?}`
 * sets the company's subscription, GET /webhooks/subscription reads it (never the secret). From then
 * on creates and updates are notified to the URL (webhook-delivery.ts). A harness uses them to observe
 * notifications and their stop after unsubscribe.
 */
function subscribe(ctx: ServerContext, request: ApiRequest) {
  const parsed = subscribeBody.safeParse(request.body);
  if (!parsed.success) throw validationError([{ rule: null, field: 'url', message: 'url must be an https URL (or http on loopback), secret a string' }]);
  const company = request.company.company;
  const webhook = (company.webhook = { url: parsed.data.url, created_at: ctx.timestamp(), secret: parsed.data.secret ?? null });
  company.ghostWebhook = null;
  return ctx.dialect.created('webhook', { url: webhook.url, created_at: webhook.created_at }, 'Webhook subscription created.');
}

function readSubscription(request: ApiRequest) {
  const { webhook } = request.company.company;
  if (!webhook) throw new ApiError(404, 'No webhook subscription.');
  return ok({ items: { url: webhook.url, created_at: webhook.created_at } });
}

/** DELETE /webhooks/subscription/unsubscribe (§4.5): deletes the company's configuration; 404 when there is none. */
function unsubscribe(ctx: ServerContext, request: ApiRequest) {
  const company = request.company.company;
  if (!company.webhook) throw new ApiError(404, 'No webhook subscription.');
  if (!ctx.fault('unsubscribe-keeps-subscription')) {
    if (ctx.fault('notifications-after-unsubscribe')) company.ghostWebhook = { url: company.webhook.url, secret: company.webhook.secret ?? null };
    company.webhook = null;
    if (ctx.fault('webhook-unsubscribe-every-company')) for (const other of ctx.companies) other.webhook = null;
  }
  return ok({ message: 'Webhook subscription removed.' });
}

/** The webhook routes; each company subscribes, reads and unsubscribes its own subscription (§2.6). */
export function webhookRoutes(router: Router, ctx: ServerContext): void {
  router
    .add('POST', '/webhooks/subscription', (r) => subscribe(ctx, r))
    .add('GET', '/webhooks/subscription', (r) => readSubscription(r))
    .add('DELETE', '/webhooks/subscription/unsubscribe', (r) => unsubscribe(ctx, r));
}
