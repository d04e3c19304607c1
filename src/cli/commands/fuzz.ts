import fc from 'fast-check';
import { UsageError } from '../../errors.ts';
import {
  BREAK_BREAKABLE_RULES,
  breakCase,
  invalidBreakCase,
  invalidScheduleCase,
  invalidTimesheetCase,
  invalidUserCase,
  SCHEDULE_BREAKABLE_RULES,
  scheduleCase,
  TIMESHEET_BREAKABLE_RULES,
  timesheetCase,
  USER_BREAKABLE_RULES,
  userCase,
} from '../../properties/arbitraries/index.ts';
import { PROPERTY_FAMILIES } from '../../properties/families.ts';
import { profileContext } from '../../properties/profile-context.ts';
import { seedContext } from '../../properties/seed-context.ts';
import type { FamilyRequest, GeneratedCase, GeneratorContext } from '../../properties/family.ts';
import { curlCommand, type CurlTlsOptions } from '../../report/curl.ts';
import { didYouMean } from '../../input/did-you-mean.ts';
import { isTimezoneName } from '../../contract/formats/index.ts';
import type { RuleId } from '../../contract/rules.ts';
import { loadProfile, type Profile } from '../../profile/profile.ts';
import { REDACTED } from '../../client/redaction.ts';
import { integerOption, parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck fuzz <schedule|schedule-update|user|user-edit|timesheet|break|FAMILY>
               [--valid | --invalid [RULE]] [--count N] [--seed S] [--format json|jsonl|curl]
               [--profile FILE] [--target URL] [--id ID] [--timezone ZONE] [--ca FILE]

Prints generated request bodies, the same bytes for the same seed. Without --valid or --invalid half
are valid and half break exactly one rule, each labelled with the rule it breaks; --invalid RULE keeps
to that rule. FAMILY is a property family of \`clockcheck run\` (${PROPERTY_FAMILIES.map((f) => f.name).join(', ')}).
--count N       how many bodies (default 10)
--seed S        the fast-check seed (default random); always printed to stderr as \`seed S\`
--format        json (an array of {label, breaks?, payload}, the default), jsonl (one object a line),
                or curl (a ready-to-run command each; the token is read from $CLOCKCHECK_TOKEN)
--profile FILE  generate for your server, from its profile (\`clockcheck run --profile\`): IDs from
                fixtures, company_timezone, and for curl target, api_prefix and tls
--target URL    {base_url} for curl (default: the profile's target, else https://127.0.0.1:8443);
                the API prefix (/api/public, or the profile's api_prefix) is added
--id ID         the schedule or user that schedule-update, user-edit and the update families change:
                required for them with --profile (no default: a real user is never changed by
                accident); 1 without
--timezone      the company timezone offsets default to (default: the profile's company_timezone,
                else America/Chicago)
--ca FILE       for curl: the CA certificate to trust (default: the profile's tls.ca; \`clockcheck
                serve\` prints its path); --cacert FILE is the same. With neither, the profile's
                tls.insecure: true gives curl -k
With --profile, payloads name only what its fixtures list: active_user_ids (assigned_by, user_ids,
user_id: schedules and timesheets), job_id and task_id (sent sometimes when given), break_rule_id and
timesheet {id, start, end} (breaks, which lie inside that timesheet). A fixture the payloads need and
the profile lacks is an error naming the key, never a guess; \`clockcheck init\` discovers them.
Without --profile the context is the reference server's seed: active users 1, 2, 3, job 1, task 1,
break rule 1, and timesheet 1 (2026-10-01, 09:00 to 17:00 company time) for breaks.`;

const FORMATS = ['json', 'jsonl', 'curl'] as const;
type Format = (typeof FORMATS)[number];

/** The reference server `clockcheck serve` starts by default: curl's target without --target or a profile. */
const REFERENCE_TARGET = 'https://127.0.0.1:8443';

/** What fuzz can generate for one name: an operation, or a property family. */
interface FuzzSubject {
  readonly request: FamilyRequest;
  readonly breakable: readonly RuleId[];
  readonly mixed: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;
  readonly valid: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;
  readonly invalid: (ctx: GeneratorContext, rule?: RuleId) => fc.Arbitrary<GeneratedCase>;
}

const operation = (
  request: FamilyRequest,
  breakable: readonly RuleId[],
  valid: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>,
  invalid: (ctx: GeneratorContext, rules?: readonly RuleId[]) => fc.Arbitrary<GeneratedCase>,
): FuzzSubject => ({
  request,
  breakable,
  valid,
  invalid: (ctx, rule) => invalid(ctx, rule ? [rule] : undefined),
  mixed: (ctx) => fc.oneof(valid(ctx), invalid(ctx)),
});

const OPERATIONS: Readonly<Record<string, FuzzSubject>> = {
  schedule: operation({ method: 'POST', path: '/schedules' }, SCHEDULE_BREAKABLE_RULES.create, (ctx) => scheduleCase(ctx, 'create'), (ctx, r) => invalidScheduleCase(ctx, 'create', r)),
  'schedule-update': operation({ method: 'PUT', path: '/schedules/{id}' }, SCHEDULE_BREAKABLE_RULES.update, (ctx) => scheduleCase(ctx, 'update'), (ctx, r) => invalidScheduleCase(ctx, 'update', r)),
  user: operation({ method: 'POST', path: '/users' }, USER_BREAKABLE_RULES.create, (ctx) => userCase(ctx, 'create'), (ctx, r) => invalidUserCase(ctx, 'create', r)),
  'user-edit': operation({ method: 'PUT', path: '/users/{id}' }, USER_BREAKABLE_RULES.update, (ctx) => userCase(ctx, 'update'), (ctx, r) => invalidUserCase(ctx, 'update', r)),
  timesheet: operation({ method: 'POST', path: '/timesheets' }, TIMESHEET_BREAKABLE_RULES, (ctx) => timesheetCase(ctx), (ctx, r) => invalidTimesheetCase(ctx, r)),
  break: operation({ method: 'POST', path: '/breaks' }, BREAK_BREAKABLE_RULES, (ctx) => breakCase(ctx), (ctx, r) => invalidBreakCase(ctx, r)),
};

/** A family's own mix, or its cases filtered: its invalid cases break exactly its rules. */
const FAMILIES: Readonly<Record<string, FuzzSubject>> = Object.fromEntries(
  PROPERTY_FAMILIES.map((f): [string, FuzzSubject] => [
    f.name,
    {
      request: f.request,
      breakable: f.rules,
      mixed: (ctx) => f.cases(ctx),
      valid: (ctx) => f.cases(ctx).filter((c) => c.breaks === undefined),
      invalid: (ctx, rule) => f.cases(ctx).filter((c) => c.breaks !== undefined && (rule === undefined || c.breaks === rule)),
    },
  ]),
);

const SUBJECTS: Readonly<Record<string, FuzzSubject>> = { ...OPERATIONS, ...FAMILIES };

/**
 * `--invalid` takes an optional RULE, which node's parseArgs cannot express: the word after
 * `--invalid` is its rule unless it is an option or a subject name. Returns argv without it.
 */
function extractInvalidRule(argv: readonly string[]): { argv: string[]; rule?: string } {
  const rest: string[] = [];
  let rule: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--invalid=')) {
      rest.push('--invalid');
      rule = arg.slice('--invalid='.length);
      continue;
    }
    rest.push(arg);
    const next = argv[i + 1];
    if (arg === '--invalid' && next !== undefined && !next.startsWith('-') && !(next in SUBJECTS)) {
      rule = next;
      i++;
    }
  }
  return rule === undefined ? { argv: rest } : { argv: rest, rule };
}

function resolveSubject(name: string | undefined): { name: string; subject: FuzzSubject } {
  if (!name) throw new UsageError(`fuzz: name what to generate: ${Object.keys(SUBJECTS).join(', ')}; see \`clockcheck fuzz --help\``);
  const subject = SUBJECTS[name];
  if (!subject) {
    const hint = didYouMean(name, Object.keys(SUBJECTS));
    throw new UsageError(`fuzz: unknown operation or family "${name}"${hint ? `; did you mean "${hint}"?` : ''} (known: ${Object.keys(SUBJECTS).join(', ')})`);
  }
  return { name, subject };
}

function resolveRule(name: string, subject: FuzzSubject, rule: string): RuleId {
  if ((subject.breakable as readonly string[]).includes(rule)) return rule as RuleId;
  const hint = didYouMean(rule, subject.breakable);
  throw new UsageError(
    `fuzz: ${name} cases cannot break "${rule}"${hint ? `; did you mean "${hint}"?` : ''} (${name} can break: ${subject.breakable.join(', ')})`,
  );
}

function render(cases: readonly GeneratedCase[], format: Format, url: string, request: FamilyRequest, trust: CurlTlsOptions): string {
  const items = cases.map((c) => ({ label: c.label, ...(c.breaks ? { breaks: c.breaks } : {}), payload: c.payload }));
  switch (format) {
    case 'json':
      return `${JSON.stringify(items, null, 2)}\n`;
    case 'jsonl':
      return items.map((item) => `${JSON.stringify(item)}\n`).join('');
    case 'curl':
      return items
        .map((item) => {
          const command = curlCommand(
            { method: request.method, url, headers: { Authorization: REDACTED, 'Content-Type': 'application/json' }, body: JSON.stringify(item.payload) },
            trust,
          );
          return `# ${item.label}${item.breaks ? ` (breaks ${item.breaks})` : ''}\n${command}\n`;
        })
        .join('\n');
  }
}

/**
 * The ID in an update's path. Without a profile the payloads are for the reference seed, where
 * schedule and user 1 exist; with one there is no default, because a guessed ID on a real server
 * could overwrite a real user's password.
 */
function resolveId(name: string, subject: FuzzSubject, id: string | undefined, profile: Profile | undefined): string {
  // `/users/{id}` changes a user, `/schedules/{id}` a schedule
  const changes = subject.request.path.match(/^\/(\w+?)s\/\{id\}$/)?.[1];
  if (id === undefined) {
    if (changes && profile) throw new UsageError(`fuzz: ${name} changes the ${changes} given by --id; with --profile there is no default (it would change a real ${changes}): add --id ID`);
    return '1';
  }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new UsageError(`fuzz: --id "${id}" is not a resource ID`);
  return id;
}

/** How curl trusts the target: --ca (alias --cacert), else the profile's tls.ca, else its tls.insecure. */
function curlTrust(ca: string | undefined, cacert: string | undefined, profile: Profile | undefined): CurlTlsOptions {
  if (ca !== undefined && cacert !== undefined && ca !== cacert) {
    throw new UsageError(`fuzz: --ca and --cacert are one option (the CA certificate curl trusts), given "${ca}" and "${cacert}"; give one`);
  }
  const caFile = ca ?? cacert ?? profile?.tls.ca;
  if (caFile !== undefined) return { caFile };
  return profile?.tls.insecure ? { insecure: true } : {};
}

/** `{base_url}` + API prefix + the request's path, with the resource ID in place of `{id}`. */
function requestUrl(target: { readonly url: string; readonly from: string }, apiPrefix: string, request: FamilyRequest, id: string): string {
  let base: URL;
  try {
    base = new URL(target.url);
  } catch {
    throw new UsageError(`fuzz: ${target.from} "${target.url}" is not a URL such as https://api.example.com`);
  }
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${apiPrefix}${request.path.replace('{id}', id)}`;
}

/** --target, else the profile's target, else the reference server; `from` says which, for errors. */
function resolveTarget(option: string | undefined, profile: Profile | undefined): { url: string; from: string } {
  if (option !== undefined) return { url: option, from: '--target' };
  if (profile?.target !== undefined) return { url: profile.target, from: "the profile's target" };
  return { url: REFERENCE_TARGET, from: 'the default target' };
}

/**
 * `clockcheck fuzz`: prints generated payloads for one operation or property family, the same bytes
 * for the same seed. The IDs they name come from `--profile`'s fixtures, else the reference seed.
 * @returns 0; misuse throws UsageError (exit 2).
 */
export async function fuzzCommand(argv: string[]): Promise<number> {
  const extracted = extractInvalidRule(argv);
  const { values, positionals } = parseCommandArgs('fuzz', extracted.argv, {
    valid: { type: 'boolean', default: false },
    invalid: { type: 'boolean', default: false },
    count: { type: 'string' },
    seed: { type: 'string' },
    format: { type: 'string', default: 'json' },
    profile: { type: 'string' },
    target: { type: 'string' },
    id: { type: 'string' },
    timezone: { type: 'string' },
    ca: { type: 'string' },
    cacert: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`fuzz: one operation or family at a time, got ${positionals.join(' ')}`);
  const { name, subject } = resolveSubject(positionals[0]);
  if (values.valid && values.invalid) throw new UsageError('fuzz: --valid and --invalid exclude each other');
  const rule = extracted.rule === undefined ? undefined : resolveRule(name, subject, extracted.rule);
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`fuzz: --format is one of ${FORMATS.join(', ')}, got "${values.format}"`);
  if (values.timezone !== undefined && !isTimezoneName(values.timezone)) throw new UsageError(`fuzz: --timezone "${values.timezone}" is not an IANA timezone name`);
  const loaded = values.profile === undefined ? undefined : await loadProfile(values.profile);
  // --timezone wins over the profile's company_timezone, as it did over the default.
  const profile = loaded && values.timezone !== undefined ? { ...loaded, company_timezone: values.timezone } : loaded;
  const id = resolveId(name, subject, values.id, profile);
  const url = requestUrl(resolveTarget(values.target, profile), profile?.api_prefix ?? '/api/public', subject.request, id);
  const trust = curlTrust(values.ca, values.cacert, profile);
  const count = integerOption('count', values.count, 10, 1, 100_000);
  const seed = integerOption('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1);
  const ctx = profile
    ? profileContext(profile, 'fuzz', { request: subject.request, neededBy: `fuzz: ${name} payloads` })
    : seedContext(values.timezone ?? 'America/Chicago', 'fuzz');
  console.error(`seed ${seed}`);

  const arbitrary = values.valid ? subject.valid(ctx) : values.invalid ? subject.invalid(ctx, rule) : subject.mixed(ctx);
  const cases = fc.sample(arbitrary, { seed, numRuns: count });
  process.stdout.write(render(cases, format, url, subject.request, trust));
  return 0;
}
