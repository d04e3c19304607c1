import { DateTime } from 'luxon';
import type { FaultName } from './faults.ts';
import type { LoadFaultName } from './load-faults.ts';
import type { BreakRecord, NamedRecord, ScheduleRecord, TimesheetRecord, UserRecord, WebhookSubscription } from './records.ts';
import { InMemoryRepository } from './store.ts';
import { formatNaiveDateTime } from '../contract/formats/index.ts';
import { STANDARD_DIALECT, type Dialect } from './dialect.ts';
import { WebhookDeliverer, type DeliveryForm } from './webhook-delivery.ts';
import type { ChangeKind } from '../contract/webhook-notification.ts';
import { wireId, type IdWire } from './id-wire.ts';
import { Company, FIRST_COMPANY } from './companies/company.ts';
import { CompanyScope, type NotifiedCategory } from './companies/company-scope.ts';

/**
 * Everything a handler needs: the shared storage, the companies it holds (the first always; a
 * second when the server serves one), the active faults, the clock. A request works within its
 * company's scope (`scopeOf`), never on the repositories here directly.
 */
export class ServerContext {
  readonly users = new InMemoryRepository<UserRecord>();
  readonly schedules = new InMemoryRepository<ScheduleRecord>();
  readonly timesheets = new InMemoryRepository<TimesheetRecord>();
  readonly breaks = new InMemoryRepository<BreakRecord>();
  readonly jobs = new InMemoryRepository<NamedRecord>();
  readonly tasks = new InMemoryRepository<NamedRecord>();
  readonly breakRules = new InMemoryRepository<NamedRecord>();
  /** Sends the subscriptions' notifications (loopback URLs only). */
  readonly webhooks = new WebhookDeliverer();
  /** How the IDs of created records are written (id-wire.ts): in answers, and in the notifications. */
  ids: IdWire = 'integer';
  /** The companies served, the first first. */
  readonly companies: Company[];
  readonly #scopes = new Map<Company, CompanyScope>();

  constructor(
    /** The first company's timezone. */
    readonly companyTimezone: string,
    private readonly faults: ReadonlySet<FaultName | LoadFaultName>,
    /** How the server answers where the spec says "not shown". */
    readonly dialect: Dialect = STANDARD_DIALECT,
  ) {
    this.companies = [new Company(FIRST_COMPANY, companyTimezone)];
  }

  /** The first company: the one every server serves, the only one unless a second token is given. */
  get firstCompany(): Company {
    return this.companies[0] as Company;
  }

  /** Adds a company (the next number) with its timezone. */
  addCompany(timezone: string): Company {
    const company = new Company(this.companies.length + 1, timezone);
    this.companies.push(company);
    return company;
  }

  /** The scope a request of `company` works within (company-scope.ts); one per company. */
  scopeOf(company: Company): CompanyScope {
    let scope = this.#scopes.get(company);
    if (!scope) this.#scopes.set(company, (scope = new CompanyScope(company, this, (...args) => this.notify(...args), (name) => this.fault(name))));
    return scope;
  }

  /** The first company's webhook subscription. */
  get webhook(): WebhookSubscription | null {
    return this.firstCompany.webhook;
  }

  set webhook(subscription: WebhookSubscription | null) {
    this.firstCompany.webhook = subscription;
  }

  /** §5.4: the first company's token was revoked. */
  get tokenRevoked(): boolean {
    return this.firstCompany.tokenRevoked;
  }

  set tokenRevoked(revoked: boolean) {
    this.firstCompany.tokenRevoked = revoked;
  }

  /** True when the named fault is switched on. */
  fault(name: FaultName | LoadFaultName): boolean {
    return this.faults.has(name);
  }

  /**
   * Notifies `company`'s webhook subscription, if any (else the ghost of a removed one), that one of
   * its records of `category` was created or updated: in the dialect's form unless a webhook fault
   * breaks it. Another company's subscription hears nothing of it.
   */
  notify(company: Company, category: NotifiedCategory, id: number, change: ChangeKind): void {
    const target = company.webhook ? { url: company.webhook.url, secret: company.webhook.secret ?? null } : company.ghostWebhook;
    const wire = wireId(this.ids, id, category === 'breaks' ? 'break' : 'other');
    this.webhooks.notify(target, category, wire, change, this.deliveryForm(change));
    if (!this.fault('webhook-notifies-every-company')) return;
    // The fault: every other company's live subscription hears of it too.
    for (const other of this.companies) {
      if (other !== company && other.webhook) this.webhooks.notify({ url: other.webhook.url, secret: other.webhook.secret ?? null }, category, wire, change, this.deliveryForm(change));
    }
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
