import { DIALECTS, type Dialect, type DialectName } from '../reference/dialect.ts';
import { seedTwoCompanies } from '../reference/companies/second-company-seed.ts';
import { ServerContext } from '../reference/context.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { seed, type SeedSummary } from '../reference/seed.ts';
import { defaultProfile, type Profile } from '../profile/profile.ts';
import type { QuickPacing } from '../execute/run-settings.ts';

/**
 * The embedded reference server's rate window for certification runs: 60 calls per second. The
 * limit is the spec's; only the window is scaled, so the run stays quick while pacing is exercised,
 * and a burst of 64 calls (tens of milliseconds on loopback) still fits well inside one window.
 */
export const EMBEDDED_RATE_LIMIT: RateLimitSetting = { limit: 60, windowMs: 1000 };

/**
 * For certifications without the rate-limit bursts (the selftest of faults that scenarios and
 * generated cases observe): 60 calls per 100 ms paces ten times faster, too fast a window for a
 * burst to show one window's count.
 */
export const QUICK_RATE_LIMIT: RateLimitSetting = { limit: 60, windowMs: 100 };

/**
 * The embedded server's two windows (docs/rate-limit-and-load.md, "The two windows of the embedded server"): the paced
 * checks at QUICK_RATE_LIMIT, `setRateLimit(EMBEDDED_RATE_LIMIT)` on a fresh limiter when the
 * rate-limit phase starts, and QUICK_RATE_LIMIT again, fresh, when it ends. `setRateLimit` reaches
 * the server in this process or over IPC.
 */
export function embeddedQuickPacing(setRateLimit: (setting: RateLimitSetting) => unknown, phaseRateLimit: RateLimitSetting = EMBEDDED_RATE_LIMIT): QuickPacing {
  return {
    rateLimit: QUICK_RATE_LIMIT,
    switchToProfileRateLimit: async () => void (await setRateLimit(phaseRateLimit)),
    switchToQuickRateLimit: async () => void (await setRateLimit(QUICK_RATE_LIMIT)),
  };
}

/**
 * How the embedded server counts its two companies' calls (§8 does not say): each token in a window
 * of its own, so the isolation checks' second-company calls are paced there, beside the run's, and
 * only the first company's share adds to a run's time. `serve --rate-limit-windows shared` and
 * ReferenceServerOptions.rateLimitWindows give the other reading.
 */
export const EMBEDDED_WINDOWS = 'per-token' as const;

/** What the profile of an embedded reference server is made from (in this process or its own). */
export interface EmbeddedFacts {
  readonly seed: SeedSummary;
  readonly dialect: Dialect;
  readonly companyTimezone: string;
  readonly rateLimit: RateLimitSetting | null;
  /** The second company, when the server serves one (its token is the certification's, never the profile's). */
  readonly secondCompany?: { readonly seed: { readonly breakRuleIds: readonly number[] } } | null;
  /** Whether the two companies' tokens count in one window (`shared`) or each in its own. */
  readonly rateLimitWindows?: 'shared' | 'per-token';
}

/** The profile of the embedded reference server, filled from its seed data (docs/reference-server.md, "Seed data"). */
export function embeddedProfile(server: EmbeddedFacts): Profile {
  const seed = server.seed;
  const dialect = server.dialect;
  const profile = defaultProfile();
  const rateLimit = server.rateLimit ?? EMBEDDED_RATE_LIMIT;
  return {
    ...profile,
    // The reference server's 429 body is {"message":"Too Many Attempts."} (§7), so the profile holds it to that.
    rate_limit: { ...profile.rate_limit, limit: rateLimit.limit, window: rateLimit.windowMs, body_text: 'Too Many Attempts' },
    company_timezone: server.companyTimezone,
    versioned_prefix: '/api/v2',
    fixtures: seedFixtures(seed),
    // The run's sink on loopback, subscribed through the server's extension with a secret the run
    // makes; loopback deliveries come within milliseconds, so a second of silence after unsubscribe is
    // telling. The notifications' form is the dialect's (the published one, or the alternative's).
    webhook: {
      subscribe_path: '/webhooks/subscription',
      subscribe_body: { url: '{{ sink.url }}', secret: '{{ sink.secret }}' },
      read_path: '/webhooks/subscription',
      sink: { listen: '127.0.0.1:0' },
      delivery_within: 5_000,
      quiet_period: 1_000,
      signature_tolerance: 300_000,
      notification: dialect.notificationForm,
    },
    // The readings the spec leaves open, as the server's dialect makes them (docs/reference-server.md, "Dialects").
    user_email_format: dialect.emailFormat,
    user_edit_required: dialect.editRequires,
    // The reference server lists a record on either end date of a range (handlers/date-range.ts).
    date_range_ends: 'inclusive',
    // A dialect that takes only snake_case sort names is named so (the spec shows camelCase).
    // id sorts as a number (list-query.ts): declared, so the order of IDs of different digit counts is judged.
    sort_names: { ...(dialect.sortNames === 'snake' ? { first_name: 'first_name', role_id: 'role_id' } : {}), id: 'id' },
    // The second company (docs/reference-server.md, "Two companies"): one ID sequence over both, and
    // another company's record answered exactly as an ID that never existed.
    ...(server.secondCompany ? { second_company: secondCompanyReadings(server.secondCompany.seed.breakRuleIds[0], server.rateLimitWindows ?? 'shared') } : {}),
  };
}

/** The second company's readings as the reference server makes them; its token comes with the certification, the variable is only named. */
function secondCompanyReadings(breakRuleId: number | undefined, windows: 'shared' | 'per-token'): NonNullable<Profile['second_company']> {
  return { token_env: 'CLOCKCHECK_SECOND_TOKEN', rate_limit: windows, foreign_ids: 'as-missing', ids: 'global', ...(breakRuleId === undefined ? {} : { break_rule_id: breakRuleId }) };
}

/** The fixtures a seed holds: the users of each role it has, an inactive one if any, a job, a task, a break rule. */
function seedFixtures(seed: SeedSummary): Profile['fixtures'] {
  const { admin, manager, employee } = seed.activeUserIds;
  const present = (id: number | null): id is number => id !== null;
  return {
    active_user_ids: [admin, manager, employee].filter(present),
    ...(seed.inactiveUserId === null ? {} : { inactive_user_id: seed.inactiveUserId }),
    job_id: seed.jobIds[0],
    task_id: seed.taskIds[0],
    break_rule_id: seed.breakRuleIds[0],
    role_user_ids: {
      admin: [admin],
      ...(manager === null ? {} : { manager: [manager] }),
      ...(employee === null ? {} : { employee: [employee] }),
    },
  };
}

/** The facts of a reference server of `dialect` with the standard seed at `rateLimit`, not started: for planning a run against one (with a second company, as `clockcheck run` starts it). */
export function embeddedFactsOf(dialect: DialectName, rateLimit: RateLimitSetting, secondCompany = false): EmbeddedFacts {
  const companyTimezone = 'America/Chicago';
  const ctx = new ServerContext(companyTimezone, new Set(), DIALECTS[dialect]);
  if (!secondCompany) return { seed: seed(ctx), dialect: DIALECTS[dialect], companyTimezone, rateLimit };
  const both = seedTwoCompanies(ctx, 'standard', ctx.addCompany(companyTimezone));
  return { seed: both.first, dialect: DIALECTS[dialect], companyTimezone, rateLimit, secondCompany: { seed: both.second }, rateLimitWindows: EMBEDDED_WINDOWS };
}

/**
 * What `clockcheck run` without --target would certify, without starting the server: its seed data
 * is the same at every start. For `--plan`, which sends nothing and starts nothing.
 */
export function unstartedEmbeddedFacts(): EmbeddedFacts {
  return embeddedFactsOf('standard', EMBEDDED_RATE_LIMIT, true);
}
