import { jsonText } from '../../contract/json-text.ts';
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
import { edgeCaseCount } from '../../properties/arbitraries/edges/edge-class.ts';
import { profileContext } from '../../properties/profile-context.ts';
import { seedContext } from '../../properties/seed-context.ts';
import type { FamilyRequest, GeneratedCase, GeneratorContext } from '../../properties/family.ts';
import { curlCommand, type CurlTlsOptions } from '../../report/curl.ts';
import { didYouMean } from '../../did-you-mean.ts';
import type { RuleId } from '../../contract/rules.ts';
import { loadProfile, type Profile } from '../../profile/profile.ts';
import { REDACTED } from '../../client/redaction.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { timezoneName } from '../option-parsers.ts';

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

export const FUZZ_COMMAND = defineCommand({
  name: 'fuzz',
  description: `Prints generated request bodies, the same bytes for the same seed. Without --valid or --invalid half
are valid and half break exactly one rule, each labelled with the rule it breaks; --invalid RULE keeps
to that rule.
With --profile, payloads name only what its fixtures list: active_user_ids (assigned_by, user_ids,
user_id: schedules and timesheets), job_id and task_id (sent sometimes when given), break_rule_id and
timesheet {id, start, end} (breaks, which lie inside that timesheet). A fixture the payloads need and
the profile lacks is an error naming the key, never a guess; \`clockcheck init\` discovers them.
Without --profile the context is the reference server's seed: active users 1, 2, 3, job 1, task 1,
break rule 1, and timesheet 1 (2026-10-01, 09:00 to 17:00 company time) for breaks.`,
  options: {
    valid: { kind: 'boolean', help: 'only valid bodies' },
    edges: { kind: 'boolean', help: "print the edge-class tables of the property families (of SUBJECT's, when it names one) with their sizes: the classes a full run sends one member of, whatever the seed" },
    invalid: { kind: 'flag-or-value', placeholder: 'RULE', takes: (word) => !Object.hasOwn(SUBJECTS, word), help: 'only bodies that break one rule; with RULE, that rule' },
    count: { kind: 'integer', placeholder: 'N', min: 1, max: 100_000, default: 10, help: 'how many bodies' },
    seed: { kind: 'integer', placeholder: 'S', min: 0, max: 2 ** 31 - 1, defaultHelp: 'random', help: 'the fast-check seed; always printed to stderr as `seed S`' },
    format: {
      kind: 'choice',
      values: FORMATS,
      default: 'json',
      help: 'json (an array of {label, breaks?, payload}), jsonl (one object a line), or curl (a ready-to-run command each; the token is read from $CLOCKCHECK_TOKEN)',
    },
    profile: { kind: 'string', placeholder: 'FILE', help: 'generate for your server, from its profile (`clockcheck run --profile`): IDs from fixtures, company_timezone, and for curl target, api_prefix and tls' },
    target: { kind: 'string', placeholder: 'URL', defaultHelp: `the profile's target, else ${REFERENCE_TARGET}`, help: "{base_url} for curl; the API prefix (/api/public, or the profile's api_prefix) is added" },
    id: {
      kind: 'string',
      placeholder: 'ID',
      defaultHelp: '1 without --profile',
      help: 'the schedule or user that schedule-update, user-edit and the update families change: required for them with --profile (no default: a real user is never changed by accident)',
    },
    timezone: { kind: 'parsed', placeholder: 'ZONE', parse: timezoneName, defaultHelp: "the profile's company_timezone, else America/Chicago", help: 'the company timezone offsets default to' },
    ca: {
      kind: 'string',
      placeholder: 'FILE',
      defaultHelp: "the profile's tls.ca",
      help: "for curl: the CA certificate to trust (`clockcheck serve` prints its path); with neither this nor the profile's tls.ca, the profile's tls.insecure: true gives curl -k",
    },
    cacert: { kind: 'string', placeholder: 'FILE', help: "the same as --ca (curl's name for it)" },
  },
  positionals: [
    {
      name: 'subject',
      help: `what to generate: an operation (${Object.keys(OPERATIONS).join(', ')}) or a property family of \`clockcheck run\` (${PROPERTY_FAMILIES.map((f) => f.name).join(', ')})`,
    },
  ],
});

function resolveSubject(name: string): { name: string; subject: FuzzSubject } {
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
      return `${jsonText(items, 2)}\n`;
    case 'jsonl':
      return items.map((item) => `${jsonText(item)}\n`).join('');
    case 'curl':
      return items
        .map((item) => {
          const command = curlCommand(
            { method: request.method, url, headers: { Authorization: REDACTED, 'Content-Type': 'application/json' }, body: jsonText(item.payload) },
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

/** The edge-class tables (arbitraries/edges/) of every family, or of the one `subject` names: each with its size, each class on a line. */
function edgeTables(subject: string | undefined): string {
  if (subject !== undefined && !PROPERTY_FAMILIES.some((f) => f.name === subject)) {
    const hint = didYouMean(subject, PROPERTY_FAMILIES.map((f) => f.name));
    throw new UsageError(`fuzz --edges: "${subject}" is not a property family${hint ? `; did you mean "${hint}"?` : ''} (the families: ${PROPERTY_FAMILIES.map((f) => f.name).join(', ')})`);
  }
  const families = PROPERTY_FAMILIES.filter((f) => subject === undefined || f.name === subject);
  const blocks = families.map((f) => {
    const valid = f.edges.filter((c) => c.breaks === undefined).length;
    const head = `${f.name} (${f.rules.join(', ')}): ${f.edges.length} classes, ${valid} valid and ${f.edges.length - valid} invalid, in ${edgeCaseCount(f.edges)} cases`;
    const width = Math.max(...f.edges.map((c) => (c.breaks ?? 'valid').length));
    return [head, ...f.edges.map((c) => `  ${(c.breaks ?? 'valid').padEnd(width)}  ${c.name}${c.mayBeHeld ? ' (a second member if the first is refused)' : ''}`)].join('\n');
  });
  const total = families.reduce((n, f) => n + f.edges.length, 0);
  return `${blocks.join('\n\n')}\n\n${total} edge classes in ${families.reduce((n, f) => n + edgeCaseCount(f.edges), 0)} cases; a full run sends one member of each, the seed picking the member\n`;
}

/**
 * `clockcheck fuzz`: prints generated payloads for one operation or property family, the same bytes
 * for the same seed. The IDs they name come from `--profile`'s fixtures, else the reference seed.
 * @returns 0; misuse throws UsageError (exit 2).
 */
export async function fuzzCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(FUZZ_COMMAND, argv);
  if (!input) return 0;
  const { options, args } = input;
  if (options.edges) {
    process.stdout.write(edgeTables(args.subject));
    return 0;
  }
  if (args.subject === undefined) throw new UsageError(`fuzz: name what to generate: an operation (${Object.keys(OPERATIONS).join(', ')}) or a property family (${PROPERTY_FAMILIES.map((f) => f.name).join(', ')}); or --edges for the edge tables`);
  const { name, subject } = resolveSubject(args.subject);
  if (options.valid && options.invalid !== false) throw new UsageError('fuzz: --valid and --invalid exclude each other');
  const rule = typeof options.invalid === 'string' ? resolveRule(name, subject, options.invalid) : undefined;
  const loaded = options.profile === undefined ? undefined : await loadProfile(options.profile);
  // --timezone wins over the profile's company_timezone, as it did over the default.
  const profile = loaded && options.timezone !== undefined ? { ...loaded, company_timezone: options.timezone } : loaded;
  const id = resolveId(name, subject, options.id, profile);
  const url = requestUrl(resolveTarget(options.target, profile), profile?.api_prefix ?? '/api/public', subject.request, id);
  const trust = curlTrust(options.ca, options.cacert, profile);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const ctx = profile
    ? profileContext(profile, 'fuzz', { request: subject.request, neededBy: `fuzz: ${name} payloads` })
    : seedContext(options.timezone ?? 'America/Chicago', 'fuzz');
  console.error(`seed ${seed}`);

  const arbitrary = options.valid ? subject.valid(ctx) : options.invalid !== false ? subject.invalid(ctx, rule) : subject.mixed(ctx);
  const cases = fc.sample(arbitrary, { seed, numRuns: options.count });
  process.stdout.write(render(cases, options.format, url, subject.request, trust));
  return 0;
}
