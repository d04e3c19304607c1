import { randomBytes } from 'node:crypto';
import { AUTO_READING, type RecordReading } from '../records/record-reading.ts';
import { linkForm } from '../checks/link-form.ts';
import { preflight } from '../needs/preflight.ts';
import { rateLimitBacklog } from '../needs/backlog.ts';
import { RunGuard, stallBudgetMs } from '../execute/run-guard.ts';
import { ClockcheckError, RunStopped } from '../errors.ts';
import { toolVersion } from '../version.ts';
import { TargetClient, type TargetRequest, type TokenScheme } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { Pacer } from '../client/pacer.ts';
import { clientTimeouts, defaultProfile, type Profile } from '../profile/profile.ts';
import { Progress, type ProgressStream } from '../report/progress.ts';
import { found, isFound, notFound, type Discovery } from './discovery.ts';
import { discoverBreakRule, discoverTimesheets, type TimesheetFixtures } from './discover-records.ts';
import { discoverDateRangeEnds } from './discover-date-range.ts';
import { discoverSortNames } from './discover-sort.ts';
import { discoverUsers, type UserFixtures } from './discover-users.ts';
import { readList, said, spellingOfList, type ListAnswer } from './list-answer.ts';
import { probeWrites, type WriteFindings } from './probe-writes.ts';
import { discoverRateLimit, type RateLimitKey } from './discover-rate-limit.ts';
import { discoverSecondCompany, SECOND_COMPANY_READS, type SecondCompanyDiscovery } from './discover-second-company.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';

/** What `clockcheck init` is pointed at. */
export interface InitOptions {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly token: string;
  /** A second company's token and the variable it came from (`--second-token-env`): its side is discovered too. */
  readonly secondToken?: { readonly env: string; readonly value: string };
  readonly caPem?: string;
  readonly insecure: boolean;
  readonly allowPlainHttp?: boolean;
  /**
   * The target's limit as `--rate-limit` gave it: init paces by it and writes it. Absent: init paces
   * at §8's 60 calls a minute and writes the limit the answers' headers state, if any.
   */
  readonly rateLimit?: RateLimitSetting;
  /** Add the three writes of `probeWrites`. */
  readonly probeWrites: boolean;
  readonly progress: ProgressStream | null;
  /** The deadlines of init's exchanges, as a profile's `timeouts` (ms); absent: the defaults. The stall budget is twice `exchange`. */
  readonly timeouts?: Profile['timeouts'];
  /** Receives each exchange init makes, redacted, as it is made (`init --har` keeps them), also when discovery then fails. */
  readonly onExchange?: (exchange: Exchange) => void;
}

/** Everything init found out, key by key, with how (or why not). */
export interface DiscoveredProfile {
  readonly scheme: TokenScheme;
  readonly activeUserIds: Discovery<number[]>;
  readonly inactiveUserId: Discovery<number>;
  readonly roleUserIds: Discovery<Partial<Record<'admin' | 'manager' | 'employee', number[]>>>;
  readonly jobId: Discovery<number>;
  readonly taskId: Discovery<number>;
  readonly breakRuleId: Discovery<number>;
  readonly timesheet: Discovery<{ id: number; start: string; end: string }>;
  readonly companyTimezone: Discovery<string>;
  readonly unauthenticated: Discovery<number>;
  readonly recordFields: Discovery<'snake' | 'camel'>;
  /** A pointer to the user list's items; null: where auto-detection finds them. */
  readonly listItems: Discovery<string | null>;
  readonly sortNames: Discovery<Record<string, string>>;
  /** `date_range_ends`: whether a range lists the records on its end dates (discover-date-range.ts). */
  readonly dateRangeEnds: Discovery<'inclusive' | 'exclusive'>;
  readonly pageSizeOverMax: Discovery<'clamp' | 'reject'>;
  readonly pageLinks: Discovery<'keep-query' | 'page-only'>;
  readonly versionedPrefix: Discovery<string>;
  /** `rate_limit`: from --rate-limit, else from the answers' rate-limit headers. */
  readonly rateLimit: Discovery<RateLimitKey>;
  /** The writes' findings with --probe-writes, else null. */
  readonly writes: WriteFindings | null;
  /** The second company's side, with `--second-token-env`; else null. */
  readonly secondCompany: SecondCompanyDiscovery | null;
  /** Disagreements and surprises worth the user's attention. */
  readonly warnings: readonly string[];
  /** Requests made, and whether any of them wrote. */
  readonly requests: number;
}

/** Read-only requests init plans: the preflight, two refused ones, the filters, the sorts, timesheets and their ranges, breaks, versions. */
const PLANNED_READS = 19;
const PLANNED_WRITES = 4;

/** The form of the links of a list answer, from its first_page_url: does it repeat the request's query? */
function pageLinks(list: ListAnswer): Discovery<'keep-query' | 'page-only'> {
  const link = list.pagination?.first_page_url;
  if (typeof link !== 'string') return notFound(`${list.said}: no first_page_url to read the link form from`);
  const sent = Object.fromEntries(new URL(list.exchange.request.url).searchParams);
  const form = linkForm(link, sent);
  if (form === null) return notFound(`${list.said}: first_page_url ${link} is not an absolute URL`);
  if (Object.keys(sent).length > 0 && form.missing.length === 0) return found('keep-query', `${list.said}: first_page_url ${link} repeats the query`);
  if (form.pageOnly) return found('page-only', `${list.said}: first_page_url ${link} carries page alone`);
  return notFound(`${list.said}: first_page_url ${link} neither repeats the query nor carries page alone`);
}

/** How a list answers page_size=101 (§8: clamp or reject; serving 101 breaks PAG-PAGE-SIZE-MAX). */
function pageSizeAnswer(list: ListAnswer): Discovery<'clamp' | 'reject'> {
  const status = list.status ?? 0;
  if (status >= 400 && status < 500 && status !== 429) return found('reject', `${list.said}: refused`);
  const perPage = list.pagination?.per_page;
  if (list.items && typeof perPage === 'number' && perPage <= 100 && list.items.length <= 100) return found('clamp', `${list.said}: served with per_page ${perPage}`);
  if (list.items && (typeof perPage === 'number' ? perPage > 100 : list.items.length > 100)) {
    return notFound(`${list.said}: served as asked (per_page ${String(perPage)}): that breaks PAG-PAGE-SIZE-MAX whichever you declare; left at either`);
  }
  return notFound(`${list.said}: the answer does not show whether it was clamped`);
}

/** What init asked the target, answer by answer, before it is read into a profile. */
interface TargetAnswers {
  readonly scheme: TokenScheme;
  /** The first page of all users (the preflight's list). */
  readonly all: ListAnswer;
  readonly spelling: 'snake' | 'camel' | null;
  readonly warnings: readonly string[];
  readonly unauthenticated: Discovery<number>;
  readonly users: UserFixtures;
  readonly sortNames: Discovery<Record<string, string>>;
  readonly timesheets: TimesheetFixtures;
  readonly dateRangeEnds: Discovery<'inclusive' | 'exclusive'>;
  /** The break list asked with page_size=101. */
  readonly oversized: ListAnswer;
  /** A break list with items (the oversized one, or one of 100). */
  readonly breaks: ListAnswer;
  readonly versionedPrefix: Discovery<string>;
  readonly writes: WriteFindings | null;
  readonly secondCompany: SecondCompanyDiscovery | null;
}

/**
 * Discovers a profile from the target, read-only unless `probeWrites`: GET and HEAD only, paced at
 * the target's limit, about 15 requests. Nothing is guessed: every value comes with the request that
 * showed it, every gap with what to fill in. The token must be accepted (raw, or only as Bearer).
 * @throws RunError when the target cannot be reached or refuses the token.
 */
export async function discoverProfile(options: InitOptions): Promise<DiscoveredProfile> {
  const profile = { ...defaultProfile(), ...(options.timeouts ? { timeouts: options.timeouts } : {}) };
  const spec = { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window };
  const pacer = new Pacer(options.rateLimit ?? spec);
  const progress = options.progress
    ? new Progress({ stream: options.progress, total: PLANNED_READS + (options.probeWrites ? PLANNED_WRITES : 0) + (options.secondToken ? SECOND_COMPANY_READS : 0), label: 'init', estimateMs: (n) => pacer.estimateMs(n) })
    : null;
  // Every answer, for the rate-limit headers any of them carries.
  const seen: Exchange[] = [];
  const client = initClient(options, profile, pacer, (exchange) => {
    seen.push(exchange);
    options.onExchange?.(exchange);
    progress?.tick();
  });
  try {
    const answers = await askTarget(client, options, profile, pacer);
    return { ...profileFrom(answers), rateLimit: discoverRateLimit(options.rateLimit, seen, spec), requests: seen.length };
  } catch (error) {
    if (error instanceof RunStopped) throw new ClockcheckError('CLOCKCHECK_TARGET', `init stopped, no profile was written: ${error.reason.replace(/, so no more requests were sent.*$/, '')}`);
    throw error;
  } finally {
    progress?.finish();
    await client.close();
  }
}

/** The longest init runs: its ~18 requests at 60 a minute take 20 s; a target that stalls is stopped sooner by the stall budget. */
const INIT_MAX_TIME_MS = 5 * 60_000;

/** The client init talks to the target with: the default profile's prefix and timeouts, paced, bodies up to 1 MiB. */
function initClient(options: InitOptions, profile: Profile, pacer: Pacer, onExchange: (exchange: Exchange) => void): TargetClient {
  return new TargetClient({
    origin: options.origin,
    apiPrefix: profile.api_prefix,
    token: options.token,
    ...(options.secondToken ? { secondToken: options.secondToken.value } : {}),
    tls: { ...(options.caPem ? { caPem: options.caPem } : {}), insecure: options.insecure },
    allowPlainHttp: options.allowPlainHttp ?? false,
    timeouts: clientTimeouts(profile),
    maxResponseBytes: 1024 * 1024,
    userAgent: `clockcheck/${toolVersion()} (init)`,
    pacer,
    onExchange,
  });
}

/** Every request init makes, in order: the preflight's user list, the refusals, the filters, the sorts, timesheets, breaks, versions, and the writes when asked. */
async function askTarget(client: TargetClient, options: InitOptions, profile: Profile, pacer: Pacer): Promise<TargetAnswers> {
  // The run's own bounds: N failures in a row, the stall budget, a certificate that changed, and a time limit.
  const guard = new RunGuard({
    send: (request) => client.send(request),
    maxTimeMs: INIT_MAX_TIME_MS,
    startedAtMs: Date.now(),
    maxTimeSource: "init's limit",
    stallBudgetMs: stallBudgetMs(profile.timeouts.exchange),
  });
  const send = (request: TargetRequest): Promise<Exchange> => guard.send(request);
  const list = async (path: string, query: Record<string, string | number>) => readList(await send({ method: 'GET', path, query }));
  const pre = await preflight(client, options.origin, profile, 'clockcheck init', { page_size: 100 });
  pacer.account(rateLimitBacklog(pre.check.exchanges.at(-1), pre.check.exchanges.length));
  const all = readList(pre.check.exchanges.at(-1) as Exchange);
  const warnings: string[] = pre.note ? [pre.note] : [];
  const spelling = all.items ? spellingOfList(all.items) : null;
  const reading: RecordReading = { ...AUTO_READING, ...(spelling ? { fields: spelling } : {}), ...(all.pointer ? { listItems: all.pointer } : {}) };
  const limitHeader = all.exchange.response?.headers['x-ratelimit-limit'];
  if (limitHeader !== undefined && limitHeader !== '60') {
    warnings.push(`${all.said}: X-RateLimit-Limit says ${limitHeader}, not §8's 60 calls a minute; run paces by rate_limit and its rate-limit checks probe it: set limit: 60 to hold the target to §8`);
  }

  const unauthenticated = await refusalStatus(send);
  const users = discoverUsers(
    {
      all,
      active: await list('/users', { active: 1, page_size: 100 }),
      inactive: await list('/users', { active: 0, page_size: 100 }),
      roles: {
        admin: await list('/users', { role: 1, page_size: 100 }),
        manager: await list('/users', { role: 2, page_size: 100 }),
        employee: await list('/users', { role: 3, page_size: 100 }),
      },
    },
    reading,
  );
  const sortNames = await discoverSortNames(send, all, reading);
  const timesheetList = await list('/timesheets', { page_size: 100 });
  const timesheets = discoverTimesheets(timesheetList, reading);
  const dateRangeEnds = await discoverDateRangeEnds(send, timesheetList, reading);
  const oversized = await list('/breaks', { page_size: 101 });
  const breaks = oversized.items ? oversized : await list('/breaks', { page_size: 100 });
  const versionedPrefix = await discoverVersionedPrefix(send, options.origin);
  // The writes add a closed timesheet of an active user when the target showed none with offsets.
  const owner = isFound(users.activeUserIds) ? users.activeUserIds.value[0] : undefined;
  const writes = options.probeWrites ? await probeWrites(send, isFound(timesheets.timesheet) ? undefined : owner) : null;
  const secondCompany = options.secondToken ? await discoverSecondCompany(send, options.secondToken.env) : null;
  return { scheme: pre.scheme, all, spelling, warnings, unauthenticated, users, sortNames, timesheets, dateRangeEnds, oversized, breaks, versionedPrefix, writes, secondCompany };
}

/** The profile the answers show, key by key, with how each was read or why it was not. */
function profileFrom(answers: TargetAnswers): Omit<DiscoveredProfile, 'requests' | 'rateLimit'> {
  const { all, spelling, users, timesheets, writes } = answers;
  return {
    scheme: answers.scheme,
    activeUserIds: users.activeUserIds,
    inactiveUserId: users.inactiveUserId,
    roleUserIds: users.roleUserIds,
    jobId: timesheets.jobId,
    taskId: timesheets.taskId,
    breakRuleId: discoverBreakRule(answers.breaks),
    timesheet: writes?.timesheet && isFound(writes.timesheet) ? writes.timesheet : timesheets.timesheet,
    companyTimezone: notFound(
      `the API shows no company settings, so the company timezone is not known; set it (run assumes America/Chicago until you do: TS-OFFSET-DEFAULT-TIMEZONE, SCH-TIMEZONE-DEFAULT and the timesheets created without a timezone depend on it)` +
        (timesheets.zones.length > 0 ? `. The timesheets on the target name ${timesheets.zones.map(([z, n]) => `${z} (${n})`).join(', ')} as clock_in_timezone` : ''),
    ),
    unauthenticated: answers.unauthenticated,
    recordFields: spelling ? found(spelling, `${all.said}: the user records name their fields in ${spelling === 'snake' ? 'snake_case (first_name)' : 'camelCase (firstName)'}`) : notFound(`${all.said}: the user records do not show how they spell field names; auto-detection reads either spelling`),
    listItems: all.items ? found(all.pointer, all.pointer ? `${all.said}: the users are at ${all.pointer}` : `${all.said}: the users are where auto-detection looks`) : notFound(`${all.said}: no list of users found in the answer`),
    sortNames: answers.sortNames,
    dateRangeEnds: answers.dateRangeEnds,
    pageSizeOverMax: pageSizeAnswer(answers.oversized),
    pageLinks: pageLinks(all),
    versionedPrefix: answers.versionedPrefix,
    writes,
    secondCompany: answers.secondCompany,
    warnings: [...answers.warnings, ...users.warnings, ...(writes?.warnings ?? []), ...(answers.secondCompany && !isFound(answers.secondCompany.served) ? [answers.secondCompany.served.why] : [])],
  };
}

/**
 * The status of a refused authentication (AUTH-STATUS, §5, §7): a token that was never issued and
 * no token at all, once each. Only when both get the same 4xx is it a profile's `unauthenticated`.
 */
async function refusalStatus(send: (request: TargetRequest) => Promise<Exchange>): Promise<Discovery<number>> {
  const wrong = await send({ method: 'GET', path: '/users', auth: { raw: `clockcheck-init-not-a-token-${randomBytes(6).toString('hex')}` } });
  const missing = await send({ method: 'GET', path: '/users', auth: 'none' });
  const [a, b] = [wrong.response?.status ?? 0, missing.response?.status ?? 0];
  const refused = (s: number) => s >= 400 && s < 500 && s !== 429;
  if (refused(a) && a === b) return found(a, `${said(wrong)} with a token never issued, and ${b} without a token`);
  return notFound(`${said(wrong)} with a token never issued, ${said(missing)} without a token: ${refused(a) && refused(b) ? 'two statuses, so no single one to require' : 'not both refused with a 4xx (AUTH-REQUIRED, AUTH-TOKEN-VALID will say more)'}`);
}

/** §9: a version label the target serves besides `public` (labels are not shown: /api/v2 and /api/v1 are tried). */
async function discoverVersionedPrefix(send: (request: TargetRequest) => Promise<Exchange>, origin: string): Promise<Discovery<string>> {
  const tried: string[] = [];
  for (const prefix of ['/api/v2', '/api/v1']) {
    const answer = readList(await send({ method: 'GET', url: `${origin}${prefix}/breaks?page_size=1` }));
    tried.push(answer.said);
    if (answer.items && answer.pagination) return found(prefix, `${answer.said}: the break list is served there too`);
  }
  return notFound(`${tried.join('; ')}: no versioned prefix serves the break list; if your server serves one (§9), name it here`);
}
