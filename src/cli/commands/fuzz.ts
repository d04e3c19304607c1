import { seedContext } from '../../properties/seed-context.ts';
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
import type { FamilyRequest, GeneratedCase, GeneratorContext } from '../../properties/family.ts';
import { curlCommand } from '../../report/curl.ts';
import { didYouMean } from '../../scenarios/yaml-source.ts';
import { isTimezoneName } from '../../spec/formats/index.ts';
import type { RuleId } from '../../spec/rules.ts';
import { REDACTED } from '../../target/redaction.ts';
import { integerOption, parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck fuzz <schedule|schedule-update|user|user-edit|timesheet|break|FAMILY>
               [--valid | --invalid [RULE]] [--count N] [--seed S] [--format json|jsonl|curl]
               [--target URL] [--id ID] [--timezone ZONE] [--cacert FILE]

Prints generated request bodies, the same bytes for the same seed. Without --valid or --invalid half
are valid and half break exactly one rule, each labelled with the rule it breaks; --invalid RULE keeps
to that rule. FAMILY is a property family of \`clockcheck run\` (${PROPERTY_FAMILIES.map((f) => f.name).join(', ')}).
--count N       how many bodies (default 10)
--seed S        the fast-check seed (default random); always printed to stderr as \`seed S\`
--format        json (an array of {label, breaks?, payload}, the default), jsonl (one object a line),
                or curl (a ready-to-run command each; the token is read from $CLOCKCHECK_TOKEN)
--target URL    {base_url} for curl (default https://127.0.0.1:8443); /api/public is added
--id ID         the schedule or user that schedule-update and user-edit change (default 1)
--timezone      the company timezone offsets default to (default America/Chicago)
--cacert FILE   for curl: the CA certificate to trust (\`clockcheck serve\` prints its path)
The context is the reference server's seed: active users 1, 2, 3, job 1, task 1, break rule 1, and
timesheet 1 (2026-10-01, 09:00 to 17:00 company time) for breaks.`;

const FORMATS = ['json', 'jsonl', 'curl'] as const;
type Format = (typeof FORMATS)[number];

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

function render(cases: readonly GeneratedCase[], format: Format, url: string, request: FamilyRequest, caFile: string | undefined): string {
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
            caFile ? { caFile } : {},
          );
          return `# ${item.label}${item.breaks ? ` (breaks ${item.breaks})` : ''}\n${command}\n`;
        })
        .join('\n');
  }
}

export async function fuzzCommand(argv: string[]): Promise<number> {
  const extracted = extractInvalidRule(argv);
  const { values, positionals } = parseCommandArgs('fuzz', extracted.argv, {
    valid: { type: 'boolean', default: false },
    invalid: { type: 'boolean', default: false },
    count: { type: 'string' },
    seed: { type: 'string' },
    format: { type: 'string', default: 'json' },
    target: { type: 'string', default: 'https://127.0.0.1:8443' },
    id: { type: 'string', default: '1' },
    timezone: { type: 'string', default: 'America/Chicago' },
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
  if (!isTimezoneName(values.timezone)) throw new UsageError(`fuzz: --timezone "${values.timezone}" is not an IANA timezone name`);
  let base: URL;
  try {
    base = new URL(values.target);
  } catch {
    throw new UsageError(`fuzz: --target "${values.target}" is not a URL such as https://api.example.com`);
  }
  if (!/^[A-Za-z0-9_-]+$/.test(values.id)) throw new UsageError(`fuzz: --id "${values.id}" is not a resource ID`);
  const count = integerOption('count', values.count, 10, 1, 100_000);
  const seed = integerOption('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1);
  console.error(`seed ${seed}`);

  const ctx = seedContext(values.timezone, 'fuzz');
  const arbitrary = values.valid ? subject.valid(ctx) : values.invalid ? subject.invalid(ctx, rule) : subject.mixed(ctx);
  const cases = fc.sample(arbitrary, { seed, numRuns: count });
  const url = `${base.origin}${base.pathname.replace(/\/+$/, '')}/api/public${subject.request.path.replace('{id}', values.id)}`;
  process.stdout.write(render(cases, format, url, subject.request, values.cacert));
  return 0;
}
