import { DateTime } from 'luxon';
import type { FaultName } from './faults.ts';
import type { LoadFaultName } from './load-faults.ts';
import type { BreakRecord, NamedRecord, ScheduleRecord, TimesheetRecord, UserRecord, WebhookSubscription } from './records.ts';
import { InMemoryRepository } from './store.ts';
import { formatNaiveDateTime } from '../contract/formats/index.ts';
import { STANDARD_DIALECT, type Dialect } from './dialect.ts';
import { WebhookDeliverer, type DeliveryForm, type DeliveryTarget } from './webhook-delivery.ts';
import type { ChangeKind } from '../contract/webhook-notification.ts';
import { wireId, type IdWire } from './id-wire.ts';

/** Everything a handler needs: storage, the company timezone, the active faults, the clock. */
export class ServerContext {
  readonly users = new InMemoryRepository<UserRecord>();
  readonly schedules = new InMemoryRepository<ScheduleRecord>();
  readonly timesheets = new InMemoryRepository<TimesheetRecord>();
  readonly breaks = new InMemoryRepository<BreakRecord>();
  readonly jobs = new InMemoryRepository<NamedRecord>();
  readonly tasks = new InMemoryRepository<NamedRecord>();
  readonly breakRules = new InMemoryRepository<NamedRecord>();
  webhook: WebhookSubscription | null = null;
  /** Under `notifications-after-unsubscribe`: the removed subscription, still notified while none is live; a new subscribe clears it. */
  ghostWebhook: DeliveryTarget | null = null;
  /** Sends the subscription's notifications (loopback URLs only). */
  readonly webhooks = new WebhookDeliverer();
  /** §5.4: the token was revoked (the revoke-key button); from then on it is refused like any wrong token. */
  tokenRevoked = false;
  /** How the IDs of created records are written (id-wire.ts): in answers, and in the notifications. */
  ids: IdWire = 'integer';

  constructor(
    readonly companyTimezone: string,
    private readonly faults: ReadonlySet<FaultName | LoadFaultName>,
    /** How the server answers where the spec says "not shown". */
    readonly dialect: Dialect = STANDARD_DIALECT,
  ) {}

  /** True when the named fault is switched on. */
  fault(name: FaultName | LoadFaultName): boolean {
    return this.faults.has(name);
  }

  /**
   * Notifies the webhook subscription, if any (else the ghost of a removed one), that a record of
   * `category` was created or updated: in the dialect's form unless a webhook fault breaks it.
   */
  notify(category: 'users' | 'schedules' | 'timesheets' | 'breaks', id: number, change: ChangeKind): void {
    const target = this.webhook ? { url: this.webhook.url, secret: this.webhook.secret ?? null } : this.ghostWebhook;
    this.webhooks.notify(target, category, wireId(this.ids, id, category === 'breaks' ? 'break' : 'other'), change, this.deliveryForm(change));
  }

  /** The form of the notifications: the dialect's, as the active faults break it. */
  private deliveryForm(change: ChangeKind): DeliveryForm {
    const signing = this.fault('webhook-unsigned') ? 'none' : this.fault('webhook-wrong-signature') ? 'wrong' : 'as-declared';
    const lastUpdatedAt = change === 'created' ? this.dialect.createdLastUpdatedAt : 'time';
    return { form: this.dialect.notificationForm, signing, includeId: !this.fault('webhook-payload-no-id'), lastUpdatedAt };
  }

  /** Now as `YYYY-MM-DDTHH:MM:SS` in UTC (the form of §2.4 `created_at`). */
  timestamp(): string {
    return formatNaiveDateTime(DateTime.utc());
  }
}
