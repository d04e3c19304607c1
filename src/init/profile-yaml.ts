import { schemaModeline } from '../input/schema-modeline.ts';
import { isFound, type Discovery } from './discovery.ts';
import type { DiscoveredProfile } from './discover-profile.ts';

/** One key init writes: its profile path, what stands in for it when not found, and its discovery (undefined: not looked for). */
interface KeySpec {
  readonly path: string;
  readonly placeholder: string;
  readonly of: (d: DiscoveredProfile) => Discovery<unknown> | undefined;
}

const key = (path: string, placeholder: string, of: KeySpec['of']): KeySpec => ({ path, placeholder, of });

/** The keys init writes, in the groups and order of the profile text. */
const FIXTURE_KEYS: readonly KeySpec[] = [
  key('fixtures.active_user_ids', '[<ID>, <ID>]   # active users; the first is assigned_by and the timesheet user', (d) => d.activeUserIds),
  key('fixtures.inactive_user_id', '<ID of an inactive user>', (d) => d.inactiveUserId),
  key('fixtures.role_user_ids', '{ admin: [<ID>], manager: [<ID>], employee: [<ID>] }', (d) => d.roleUserIds),
  key('fixtures.job_id', '<ID of a job>', (d) => d.jobId),
  key('fixtures.task_id', '<ID of a task>', (d) => d.taskId),
  key('fixtures.break_rule_id', '<ID of a break rule>', (d) => d.breakRuleId),
  key('fixtures.timesheet', '{ id: <ID>, start: "YYYY-MM-DDTHH:MM:SS±HH:MM", end: "YYYY-MM-DDTHH:MM:SS±HH:MM" }', (d) => d.timesheet),
];
const RATE_LIMIT_KEY = key('rate_limit', '{ limit: 60, window: 60s }', (d) => d.rateLimit);
const COMPANY_KEY = key('company_timezone', '<IANA zone, e.g. America/Chicago>', (d) => d.companyTimezone);
const STATUS_KEYS: readonly KeySpec[] = [
  key('status_codes.unauthenticated', '<status>', (d) => d.unauthenticated),
  key('status_codes.create', '<status>', (d) => d.writes?.create),
  key('status_codes.update', '<status>', (d) => d.writes?.update),
  key('status_codes.validation', '<status>', (d) => d.writes?.validation),
];
const ANSWER_KEYS: readonly KeySpec[] = [
  key('id_pointer', "/data/id   # JSON pointer to a created resource's ID", (d) => d.writes?.idPointer),
  key('record_fields', 'snake   # or camel: how the user, schedule and timesheet records spell field names', (d) => d.recordFields),
  key('list_items', '/data   # JSON pointer to the items of the user and timesheet lists', (d) => d.listItems),
  key('sort_names', '{ first_name: firstName, role_id: roleId }', (d) => d.sortNames),
  key('date_range_ends', 'either   # or inclusive, exclusive: are records on the two end dates of a date_range listed?', (d) => d.dateRangeEnds),
  key('page_size_over_max', 'either   # clamp or reject', (d) => d.pageSizeOverMax),
  key('page_links', 'either   # keep-query or page-only', (d) => d.pageLinks),
  key('versioned_prefix', '/api/v2', (d) => d.versionedPrefix),
];

/** The keys looked for, each with its discovery. */
function looked(d: DiscoveredProfile, keys: readonly KeySpec[]): Array<[KeySpec, Discovery<unknown>]> {
  return keys.flatMap((k): Array<[KeySpec, Discovery<unknown>]> => {
    const discovery = k.of(d);
    return discovery === undefined ? [] : [[k, discovery]];
  });
}

/** The keys of a discovery, found and not found, by their profile paths (for the command's summary). */
export function discoveredKeys(d: DiscoveredProfile): { found: Array<[string, unknown]>; missing: Array<[string, string]> } {
  const all = looked(d, [RATE_LIMIT_KEY, ...FIXTURE_KEYS, COMPANY_KEY, ...STATUS_KEYS, ...ANSWER_KEYS, ...(d.secondCompany ? [SECOND_RATE_LIMIT, SECOND_BREAK_RULE] : [])]);
  return {
    // A null value found (list_items where auto-detection finds the items) needs no key.
    found: all.flatMap(([k, v]): Array<[string, unknown]> => (isFound(v) && v.value !== null ? [[k.path, v.value]] : [])),
    missing: all.flatMap(([k, v]): Array<[string, string]> => (isFound(v) ? [] : [[k.path, v.why]])),
  };
}

/** What the profile text says about where it came from. */
export interface ProfileOrigin {
  readonly target: string;
  readonly tokenEnv: string;
  readonly caFile?: string;
  readonly insecure: boolean;
  readonly toolVersion: string;
  readonly writtenAt: Date;
}

const WIDTH = 100;

/** A value in YAML flow style: plain words where YAML reads them as strings, JSON quotes elsewhere. */
export function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{ ${Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(', ')} }`;
  if (typeof value === 'string') {
    const plain = /^[A-Za-z_/][A-Za-z0-9_./+-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value);
    return plain ? value : JSON.stringify(value);
  }
  return String(value);
}

/** Comment lines, wrapped at WIDTH, at an indent. */
function comment(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}# ${line}`);
  return lines;
}

/**
 * A key found: how, then the key (its last path segment, at `indent`). Not found: why, then the
 * key commented out with its placeholder to fill in. A null value found needs no key: just how.
 */
function entry(spec: KeySpec, discovery: Discovery<unknown>, indent = ''): string[] {
  const name = spec.path.slice(spec.path.lastIndexOf('.') + 1);
  if (isFound(discovery) && discovery.value === null) return comment(`${name} is not needed: ${discovery.how}`, indent);
  if (isFound(discovery)) return [...comment(discovery.how, indent), `${indent}${name}: ${flow(discovery.value)}`];
  return [...comment(`NOT FOUND: ${discovery.why}`, indent), `${indent}# ${name}: ${spec.placeholder}`];
}

/** What `rate_limit` holds besides the limit, which only a user can set. */
const RATE_LIMIT_EXTRAS =
  '§7 names the 429 "Too Many Attempts" and its body is not shown: set body_text to assert it (RATE-LIMIT-BODY). bursts: false skips the bursts when other clients share the token.';

/**
 * `rate_limit`: found, how and then the key; not found, why and then the key commented out with
 * §8's value. Either way with the keys only a user sets (body_text, bursts) commented.
 */
function rateLimitEntry(discovery: DiscoveredProfile['rateLimit']): string[] {
  if (isFound(discovery)) {
    const { limit, window } = discovery.value;
    return ['', ...comment(discovery.how, ''), 'rate_limit:', `  limit: ${limit}`, `  window: ${window}`, ...comment(RATE_LIMIT_EXTRAS, '  '), '  # body_text: Too Many Attempts', '  # bursts: false'];
  }
  const commented = ['rate_limit:', '  limit: 60', '  window: 60s', '  body_text: Too Many Attempts', '  bursts: false'].map((line) => `# ${line}`);
  return ['', ...comment(`NOT FOUND: ${discovery.why}`, ''), ...comment(RATE_LIMIT_EXTRAS, ''), ...commented];
}

const section = (title: string) => ['', `# ${`-- ${title} `.padEnd(WIDTH - 2, '-')}`];

const SECOND_RATE_LIMIT = key('second_company.rate_limit', 'shared', (d) => d.secondCompany?.rateLimit);
const SECOND_BREAK_RULE = key('second_company.break_rule_id', '<a break rule of the second company>', (d) => d.secondCompany?.breakRuleId);

/**
 * The second company (`init --second-token-env`): its token's variable, the window reading and a
 * break rule as its answers showed them; without one, how to name it (the isolation checks are
 * skipped until a profile does, and the run says isolation between companies was not certified).
 */
function secondCompanyEntry(second: DiscoveredProfile['secondCompany']): string[] {
  const lines = section('a second company: isolation between companies (ISO-*)');
  if (second === null) {
    return [
      ...lines,
      ...comment("The isolation checks read and write as a second company and require that neither reaches the other's records (OWASP API1:2023). Give an administrator token of another company on this server (a test company), by environment variable; `clockcheck init --second-token-env NAME` discovers its side.", ''),
      '# second_company: { token_env: CLOCKCHECK_SECOND_TOKEN }',
    ];
  }
  lines.push('second_company:', `  token_env: ${second.tokenEnv}`);
  if (!isFound(second.served)) lines.push(...comment(`WARNING: ${second.served.why}`, '  '));
  lines.push(...entry(SECOND_RATE_LIMIT, second.rateLimit, '  '), ...entry(SECOND_BREAK_RULE, second.breakRuleId, '  '));
  lines.push(...comment("foreign_ids (either, as-missing, refused) and ids (unknown, global) are readings init cannot see without a write: declare yours.", '  '));
  return lines;
}

/**
 * The profile `clockcheck init` writes: YAML that `clockcheck run --profile` reads as it is. Its
 * first line names the profile's JSON Schema of `origin.toolVersion` to the editor. Every key found
 * comes with a comment saying how (the request and what answered it); every key not found is a
 * commented line with a placeholder and the reason. It never holds the token.
 */
export function renderProfileYaml(found: DiscoveredProfile, origin: ProfileOrigin): string {
  const writes = found.writes;
  const lines: string[] = [
    // First: the editor completes and checks the keys against this version's schema as the user edits.
    schemaModeline('profile', origin.toolVersion),
    `# clockcheck target profile for ${origin.target}`,
    ...comment(
      `Written by \`clockcheck init\` (clockcheck ${origin.toolVersion}) on ${origin.writtenAt.toISOString()} from ${found.requests} requests (${writes ? `read-only, then ${writes.created.length > 0 ? 'three writes' : 'the writes of --probe-writes'}` : 'read-only: GET only'}). ` +
        'Each key says how it was found: the request and what answered it. A key left as a comment could not be established from the answers: ' +
        'fill it in, or leave it out, and the checks that need it are skipped with the reason. Every key is documented in docs/profiles.md, "Every key".',
      '',
    ),
    ...comment(`The token is not in this file: clockcheck reads it from $${origin.tokenEnv}.`, ''),
  ];
  if (found.warnings.length > 0) {
    lines.push('#', '# Warnings:');
    for (const warning of found.warnings) lines.push(...comment(`- ${warning}`, ''));
  }
  if (writes && writes.created.length > 0) {
    lines.push('#', '# --probe-writes created on the target (the spec has no delete for users):');
    for (const created of writes.created) lines.push(...comment(`- ${created}`, ''));
  }
  lines.push('', `target: ${flow(origin.target)}`, `token_env: ${origin.tokenEnv}`);
  if (origin.caFile !== undefined || origin.insecure) {
    lines.push('tls:');
    if (origin.caFile !== undefined) lines.push(`  ca: ${flow(origin.caFile)}   # from --ca`);
    if (origin.insecure) lines.push('  insecure: true   # from --insecure: the certificate is not verified');
  }
  lines.push(...rateLimitEntry(found.rateLimit));
  if (found.scheme === 'bearer') {
    lines.push(...comment('The target served the token only as Authorization: Bearer <token>; run finds that out again in its preflight and fails AUTH-HEADER-RAW (§5.2).', ''));
  }

  const fixtures = looked(found, FIXTURE_KEYS);
  // With no fixture found every line below is a comment, and a bare `fixtures:` would read as null.
  lines.push(...section("the target's own data (fixtures)"), fixtures.some(([, d]) => isFound(d)) ? 'fixtures:' : 'fixtures: {}   # none found: fill in the keys below');
  for (const [spec, discovery] of fixtures) lines.push(...entry(spec, discovery, '  '));
  lines.push('');
  for (const [spec, discovery] of looked(found, [COMPANY_KEY])) lines.push(...entry(spec, discovery));

  lines.push(...section('how the target answers where the spec says "not shown"'));
  const codes = looked(found, STATUS_KEYS);
  lines.push(...comment('Exact statuses make `success`, `rejected` and `refused` exact; without a key any 2xx / 4xx passes.', ''));
  if (codes.some(([, d]) => isFound(d))) {
    lines.push('status_codes:');
    for (const [spec, discovery] of codes) lines.push(...entry(spec, discovery, '  '));
  } else {
    for (const [spec, d] of codes) lines.push(...comment(`NOT FOUND: ${spec.path}: ${(d as { why: string }).why}`, ''));
    lines.push(`# status_codes: { ${codes.map(([spec]) => `${spec.path.slice('status_codes.'.length)}: <status>`).join(', ')} }`);
  }
  if (!writes) {
    lines.push(...comment('`clockcheck init --probe-writes` finds these with three writes:', ''), '# status_codes: { create: <status>, update: <status>, validation: <status> }');
  }
  for (const [spec, discovery] of looked(found, ANSWER_KEYS)) lines.push(...entry(spec, discovery));

  lines.push(...secondCompanyEntry(found.secondCompany), ...section('what only you can declare'));
  lines.push(
    ...comment('USR-EMAIL-FORMAT and USR-EDIT-REQUIRED are readings the spec leaves open; declare yours and the checks of that reading run (default either: neither is asserted).', ''),
    '# user_email_format: validated       # or not-validated: is a malformed e-mail rejected?',
    '# user_edit_required: none          # or all-four: does PUT /users/{id} need first_name, last_name, email and password?',
    ...comment('The spec shows no webhook subscribe operation (§4.5) and no notification form (§6): name your subscribe extension to observe unsubscribe, and a sink the target can reach (e.g. through a tunnel you run to the listen port) to observe notifications arrive, signed, and stop. Without subscribe_path, subscribe the sink in the web app first.', ''),
    '# webhook:',
    '#   subscribe_path: /webhooks/subscription',
    '#   subscribe_body: { url: "{{ sink.url }}", secret: "{{ sink.secret }}" }',
    '#   read_path: /webhooks/subscription',
    '#   sink: { listen: 127.0.0.1:8787, public_url: https://your-tunnel.example.com/ }',
    '#   secret_env: CLOCKCHECK_WEBHOOK_SECRET',
    '#   delivery_within: 60s              # quiet_period (after unsubscribe) defaults to the same',
    '#   notification:                     # the form of a notification; every key defaults to the published one',
    '#     id: /payload/data/id',
    '#     operation: { at: /payload/data/operation, value: "{event}_{change}" }',
    '#     signature: { header: x-webhook-signature, timestamp_header: x-webhook-timestamp, signed: "{timestamp}{body}" }',
    '# waivers: [{ rule: RATE-LIMIT-SLIDING, reason: "fixed-window limiter, tracked in OPS-123" }]',
    '',
  );
  return lines.join('\n');
}
