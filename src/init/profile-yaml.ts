import { isFound, type Discovery } from './discovery.ts';
import type { DiscoveredProfile } from './discover-profile.ts';

/** The keys of a discovery, found and not found, by their profile names (for the command's summary). */
export function discoveredKeys(d: DiscoveredProfile): { found: Array<[string, unknown]>; missing: Array<[string, string]> } {
  const keys: Array<[string, Discovery<unknown>]> = [
    ['fixtures.active_user_ids', d.activeUserIds],
    ['fixtures.inactive_user_id', d.inactiveUserId],
    ['fixtures.role_user_ids', d.roleUserIds],
    ['fixtures.job_id', d.jobId],
    ['fixtures.task_id', d.taskId],
    ['fixtures.break_rule_id', d.breakRuleId],
    ['fixtures.timesheet', d.timesheet],
    ['company_timezone', d.companyTimezone],
    ['status_codes.unauthenticated', d.unauthenticated],
    ...(d.writes
      ? ([
          ['status_codes.create', d.writes.create],
          ['status_codes.update', d.writes.update],
          ['status_codes.validation', d.writes.validation],
          ['id_pointer', d.writes.idPointer],
        ] as Array<[string, Discovery<unknown>]>)
      : []),
    ['record_fields', d.recordFields],
    ['list_items', d.listItems],
    ['sort_names', d.sortNames],
    ['page_size_over_max', d.pageSizeOverMax],
    ['page_links', d.pageLinks],
    ['versioned_prefix', d.versionedPrefix],
  ];
  return {
    found: keys.filter(([, v]) => isFound(v) && v.value !== null).map(([k, v]) => [k, v.value]),
    missing: keys.filter(([, v]) => !isFound(v)).map(([k, v]) => [k, (v as { why: string }).why]),
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

/** A key found: how, then the key. Not found: why, then the key commented out with a placeholder to fill in. */
function entry<T>(name: string, discovery: Discovery<T>, placeholder: string, indent = ''): string[] {
  if (isFound(discovery)) return [...comment(discovery.how, indent), `${indent}${name}: ${flow(discovery.value)}`];
  return [...comment(`NOT FOUND: ${discovery.why}`, indent), `${indent}# ${name}: ${placeholder}`];
}

const section = (title: string) => ['', `# ${`-- ${title} `.padEnd(WIDTH - 2, '-')}`];

/**
 * The profile `clockcheck init` writes: YAML that `clockcheck run --profile` reads as it is. Every
 * key found comes with a comment saying how (the request and what answered it); every key not
 * found is a commented line with a placeholder and the reason. It never holds the token.
 */
export function renderProfileYaml(found: DiscoveredProfile, origin: ProfileOrigin): string {
  const writes = found.writes;
  const lines: string[] = [
    `# clockcheck target profile for ${origin.target}`,
    ...comment(
      `Written by \`clockcheck init\` (clockcheck ${origin.toolVersion}) on ${origin.writtenAt.toISOString()} from ${found.requests} requests (${writes ? `read-only, then ${writes.created.length > 0 ? 'three writes' : 'the writes of --probe-writes'}` : 'read-only: GET only'}). ` +
        'Each key says how it was found: the request and what answered it. A key left as a comment could not be established from the answers: ' +
        'fill it in, or leave it out, and the checks that need it are skipped with the reason. Every key is documented in README.md, "Profile".',
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
  if (found.scheme === 'bearer') {
    lines.push(...comment('The target served the token only as Authorization: Bearer <token>; run finds that out again in its preflight and fails AUTH-HEADER-RAW (§5.2).', ''));
  }

  lines.push(...section('the target\'s own data (fixtures)'), 'fixtures:');
  lines.push(...entry('active_user_ids', found.activeUserIds, '[<ID>, <ID>]   # active users; the first is assigned_by and the timesheet user', '  '));
  lines.push(...entry('inactive_user_id', found.inactiveUserId, '<ID of an inactive user>', '  '));
  lines.push(...entry('role_user_ids', found.roleUserIds, '{ admin: [<ID>], manager: [<ID>], employee: [<ID>] }', '  '));
  lines.push(...entry('job_id', found.jobId, '<ID of a job>', '  '));
  lines.push(...entry('task_id', found.taskId, '<ID of a task>', '  '));
  lines.push(...entry('break_rule_id', found.breakRuleId, '<ID of a break rule>', '  '));
  lines.push(...entry('timesheet', found.timesheet, '{ id: <ID>, start: "YYYY-MM-DDTHH:MM:SS±HH:MM", end: "YYYY-MM-DDTHH:MM:SS±HH:MM" }', '  '));
  lines.push('', ...entry('company_timezone', found.companyTimezone, '<IANA zone, e.g. America/Chicago>'));

  lines.push(...section('how the target answers where the spec says "not shown"'));
  const codes: Array<[string, Discovery<number>]> = [
    ['unauthenticated', found.unauthenticated],
    ...(writes
      ? ([
          ['create', writes.create],
          ['update', writes.update],
          ['validation', writes.validation],
        ] as Array<[string, Discovery<number>]>)
      : []),
  ];
  lines.push(...comment('Exact statuses make `success`, `rejected` and `refused` exact; without a key any 2xx / 4xx passes.', ''));
  if (codes.some(([, d]) => isFound(d))) {
    lines.push('status_codes:');
    for (const [name, d] of codes) lines.push(...entry(name, d, '<status>', '  '));
  } else {
    for (const [name, d] of codes) lines.push(...comment(`NOT FOUND: status_codes.${name}: ${(d as { why: string }).why}`, ''));
    lines.push(`# status_codes: { ${codes.map(([name]) => `${name}: <status>`).join(', ')} }`);
  }
  if (!writes) {
    lines.push(...comment('`clockcheck init --probe-writes` finds these with three writes:', ''), '# status_codes: { create: <status>, update: <status>, validation: <status> }');
  }
  if (writes) lines.push(...entry('id_pointer', writes.idPointer, '/data/id   # JSON pointer to a created resource\'s ID'));
  lines.push(...entry('record_fields', found.recordFields, 'snake   # or camel: how the user, schedule and timesheet records spell field names'));
  if (isFound(found.listItems) && found.listItems.value === null) lines.push(...comment(`list_items is not needed: ${found.listItems.how}`, ''));
  else lines.push(...entry('list_items', found.listItems, '/data   # JSON pointer to the items of the user and timesheet lists'));
  lines.push(...entry('sort_names', found.sortNames, '{ first_name: firstName, role_id: roleId }'));
  lines.push(...entry('page_size_over_max', found.pageSizeOverMax, 'either   # clamp or reject'));
  lines.push(...entry('page_links', found.pageLinks, 'either   # keep-query or page-only'));
  lines.push(...entry('versioned_prefix', found.versionedPrefix, '/api/v2'));

  lines.push(...section('what only you can declare'));
  lines.push(
    ...comment('USR-EMAIL-FORMAT and USR-EDIT-REQUIRED are readings the spec leaves open; declare yours and the checks of that reading run (default either: neither is asserted).', ''),
    '# user_email_format: validated       # or not-validated: is a malformed e-mail rejected?',
    '# user_edit_required: none          # or all-four: does PUT /users/{id} need first_name, last_name, email and password?',
    ...comment('The spec shows no webhook subscribe operation (§4.5): name your extension to observe unsubscribe.', ''),
    '# webhook:',
    '#   subscribe_path: /webhooks/subscription',
    '#   subscribe_body: { url: "https://hooks.example.com/x" }',
    '#   read_path: /webhooks/subscription',
    ...comment('§8: 60 calls a minute. The 429 body is not shown; set body_text to assert it (RATE-LIMIT-BODY). bursts: false skips the bursts when other clients share the token.', ''),
    '# rate_limit: { limit: 60, window: 60s, body_text: Too Many Attempts, bursts: true }',
    '# waivers: [{ rule: RATE-LIMIT-SLIDING, reason: "fixed-window limiter, tracked in OPS-123" }]',
    '',
  );
  return lines.join('\n');
}
