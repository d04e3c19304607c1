import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import { ApiError, ok, validationError } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';

const subscribeBody = z.object({ url: z.url({ protocol: /^https$/ }) });

/**
 * Extension (the spec shows no subscribe operation, §4.5): POST /webhooks/subscription `{url}` sets the
 * company's subscription, GET /webhooks/subscription reads it. A harness uses them to observe unsubscribe.
 */
function subscribe(ctx: ServerContext, request: ApiRequest) {
  const parsed = subscribeBody.safeParse(request.body);
  if (!parsed.success) throw validationError([{ rule: null, field: 'url', message: 'url must be an https URL' }]);
  ctx.webhook = { url: parsed.data.url, created_at: ctx.timestamp() };
  return ctx.dialect.created('webhook', { ...ctx.webhook }, 'Webhook subscription created.');
}

function readSubscription(ctx: ServerContext) {
  if (!ctx.webhook) throw new ApiError(404, 'No webhook subscription.');
  return ok({ items: ctx.webhook });
}

/** DELETE /webhooks/subscription/unsubscribe (§4.5): deletes the configuration; 404 when there is none. */
function unsubscribe(ctx: ServerContext) {
  if (!ctx.webhook) throw new ApiError(404, 'No webhook subscription.');
  if (!ctx.fault('unsubscribe-keeps-subscription')) ctx.webhook = null;
  return ok({ message: 'Webhook subscription removed.' });
}

export function webhookRoutes(router: Router, ctx: ServerContext): void {
  router
    .add('POST', '/webhooks/subscription', (r) => subscribe(ctx, r))
    .add('GET', '/webhooks/subscription', () => readSubscription(ctx))
    .add('DELETE', '/webhooks/subscription/unsubscribe', () => unsubscribe(ctx));
}
