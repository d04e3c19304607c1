import type { WebhookSubscription } from '../records.ts';
import type { DeliveryTarget } from '../webhook-delivery.ts';

/**
 * The internal number of a company: every stored record carries the one it belongs to (store.ts),
 * never shown in an answer. The first company is 1; a second, when the server serves one, is 2.
 */
export type CompanyId = number;

export const FIRST_COMPANY: CompanyId = 1;

/**
 * One company of the shared database: what it owns apart from its records. Its timezone (§2.1, §2.3:
 * "the company timezone"), its webhook subscription (§2.6: a company has one) and whether its token
 * was revoked (§5.4). Its records live in the shared repositories, marked with its `id`.
 */
export class Company {
  webhook: WebhookSubscription | null = null;
  /** Under `notifications-after-unsubscribe`: the removed subscription, still notified while none is live; a new subscribe clears it. */
  ghostWebhook: DeliveryTarget | null = null;
  /** §5.4: its token was revoked (the revoke-key button); from then on it is refused like any wrong token. */
  tokenRevoked = false;

  constructor(
    readonly id: CompanyId,
    /** The company timezone: the default of a schedule's timezone and of a timesheet's clock-in and clock-out timezones. */
    readonly timezone: string,
  ) {}
}
