import { readPemFile } from '../../tls/pem-file.ts';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { tlsIdentityFromPem, writeCaFile } from '../../tls/certificate.ts';
import { FAULTS, serverFaultByName } from '../../reference/faults.ts';
import { LOAD_FAULTS } from '../../reference/load-faults.ts';
import { RATE_LIMIT_COUNTINGS } from '../../reference/rate-limiter.ts';
import { RATE_LIMIT_WINDOWS } from '../../reference/rate-limit-key.ts';
import { parseRateLimit, type RateLimitSetting } from '../../contract/rate-limit.ts';
import { SetRateLimitRequest, type ServeAnnouncement } from '../../embedded/embedded-process.ts';
import { startReferenceServer, type ReferenceServer, type SecondCompany } from '../../reference/server.ts';
import type { RateLimitWindows } from '../../reference/rate-limit-key.ts';
import { DIALECT_NAMES } from '../../reference/dialect.ts';
import { ID_WIRE_FORMS, ID_WIRE_NAMES } from '../../reference/id-wire.ts';
import { SEED_NAMES } from '../../reference/seed.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { timezoneName } from '../option-parsers.ts';

export const SERVE_COMMAND = defineCommand({
  name: 'serve',
  description: `Runs the embedded reference server: a full implementation of the spec, HTTPS only.
The first line printed is \`listening https://HOST:PORT\`; the next names the CA file to trust.
The token comes from --token, else CLOCKCHECK_TOKEN, else one is generated and printed.
--second-company serves a second company in the same database (its own users, schedule, timesheets,
breaks and subscription; each token reaches only its own company's records). Its token comes from
CLOCKCHECK_SECOND_TOKEN, else one is generated and printed; it is never given on the command line.
--dialect chooses how the server answers where the spec says "not shown":
  standard     201 {items, message} on create, 422 for validation, page_size > 100 clamped, links keep
               the query, sort names in camelCase or snake_case, e-mails validated, PUT /users partial.
  alternative  the other valid choices: 200 {data} with camelCase records, 400 for validation, 403 for a
               bad token, page_size > 100 rejected, links without the query string, camelCase sort names
               only, any e-mail string accepted, PUT /users requires first_name, last_name, email, password;
               notifications {"type": "users.created", "data": {"id"}} signed x-signature-256: sha256=<HMAC of the body>.
  laravel      as the Laravel service behind the spec: 200 {items, message} on create (breaks too)
               and update; records with 1/0 flags and pay_rate "15.00"; timesheets with clock_in_time and
               clock_out_time (wall time, no offset), duration "H:MM", job_id/task_id 0 for none; standard
               errors, page_size > 100 clamped, links without the query string, snake_case sort names
               only, e-mails validated, PUT /users partial; notifications of a create with last_updated_at false.`,
  options: {
    port: { kind: 'integer', placeholder: 'N', min: 0, max: 65535, default: 0, help: 'the port to listen on; 0 for a free one' },
    host: { kind: 'string', placeholder: 'ADDR', default: '127.0.0.1', help: 'the address to listen on' },
    token: { kind: 'string', placeholder: 'T', defaultHelp: 'CLOCKCHECK_TOKEN, else a generated one', help: 'the token the server accepts' },
    'rate-limit': { kind: 'parsed', placeholder: 'LIMIT/WINDOW|off', default: '60/60s', parse: parseRateLimit, help: 'the limit the server enforces (§8); off for none' },
    'rate-limit-counts': {
      kind: 'choice',
      values: RATE_LIMIT_COUNTINGS,
      default: 'served',
      help: 'what counts against the limit: the calls served, or all attempts (another reading of §8: a client that keeps calling while limited stays limited)',
    },
    timezone: { kind: 'parsed', placeholder: 'ZONE', default: 'America/Chicago', parse: timezoneName, help: 'the company timezone' },
    'second-company': { kind: 'boolean', help: "serve a second company, its token from CLOCKCHECK_SECOND_TOKEN (else a generated one, printed)" },
    'second-timezone': { kind: 'parsed', placeholder: 'ZONE', parse: timezoneName, defaultHelp: 'the --timezone', help: "the second company's timezone, with --second-company" },
    'rate-limit-windows': {
      kind: 'choice',
      values: RATE_LIMIT_WINDOWS,
      default: 'shared',
      help: "with --second-company: the two companies' tokens count in one window (shared) or each in its own (per-token); both readings of §8",
    },
    fault: { kind: 'repeatable', placeholder: 'NAME', help: 'switch on a named fault that breaks exactly one rule (--list-faults lists them)' },
    versions: { kind: 'list', placeholder: 'LABEL', default: ['v2'], help: 'the version labels served besides public (§9)' },
    cert: { kind: 'string', placeholder: 'FILE', defaultHelp: 'a fresh one from a fresh CA', help: "the server's certificate (PEM), with --key" },
    key: { kind: 'string', placeholder: 'FILE', help: "the certificate's private key (PEM), with --cert" },
    'ca-out': { kind: 'string', placeholder: 'DIR', defaultHelp: 'a folder in the temporary directory', help: 'where to write the CA file to trust' },
    dialect: { kind: 'choice', values: DIALECT_NAMES, default: 'standard', help: 'how the server answers where the spec says "not shown" (above)' },
    ids: { kind: 'choice', values: ID_WIRE_NAMES, default: 'integer', help: 'how the IDs of created records are written: integer, string ("42"), negative, or beyond-2^53 (each an integer by meaning, as §4 asks)' },
    'seed-data': {
      kind: 'choice',
      values: SEED_NAMES,
      default: 'standard',
      help: 'the data it starts with: standard (12 users, 13 timesheets, 36 breaks), small (4 users, 1 timesheet, 3 breaks) or fresh (a company just set up: its admin, jobs, tasks and break rules, nothing else)',
    },
    'list-faults': { kind: 'boolean', help: 'list the faults, each with the rule it breaks, and exit' },
    ipc: {
      kind: 'boolean',
      help: "how `clockcheck run` starts its embedded target: nothing is printed; the server announces its address, token, CA and seed data over the parent process's IPC channel, takes a new rate limit from it, and exits when the parent goes",
    },
  },
});

function listFaults(): void {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  const ruleWidth = Math.max(...FAULTS.map((f) => f.rule.length));
  console.log(`${'FAULT'.padEnd(width)}  ${'RULE'.padEnd(ruleWidth)}  SEEN BY   DESCRIPTION`);
  for (const f of FAULTS) console.log(`${f.name.padEnd(width)}  ${f.rule.padEnd(ruleWidth)}  ${f.observable.padEnd(8)}  ${f.description}`);
  console.log(`\n${FAULTS.length} faults`);
  console.log(`\nLoad faults: only under concurrent load (a certification never meets them; \`clockcheck load --workload default --fault NAME\` shows each):`);
  const loadWidth = Math.max(...LOAD_FAULTS.map((f) => f.name.length));
  for (const f of LOAD_FAULTS) console.log(`${f.name.padEnd(loadWidth)}  ${(f.rule ?? '-').padEnd(ruleWidth)}  ${f.description} Shows in ${f.shows}.`);
  console.log(`\n${LOAD_FAULTS.length} load faults`);
}

/** The lines `serve` prints after the listening line: where the CA is, the token's source, the seed data. */
export function describeServer(server: ReferenceServer, caFile: string, tokenSource: string): string[] {
  const seed = server.seed;
  const dialect = server.context.dialect;
  return [
    `ca ${caFile}`,
    `token ${tokenSource}`,
    `certificate sha256 ${server.tls.fingerprint256}`,
    `company timezone ${server.companyTimezone}`,
    `faults ${server.faults.length > 0 ? server.faults.join(', ') : 'none'}`,
    `dialect ${dialect.name} (e-mail format ${dialect.emailFormat}; edit requires ${dialect.editRequires}; sort names ${dialect.sortNames})`,
    ...(typeof server.context.ids === 'string' && server.context.ids !== 'integer' ? [`ids written ${server.context.ids}: the record stored as n (the seed's IDs below) is written ${ID_WIRE_FORMS[server.context.ids]}`] : []),
    `seed ${seed.name}: active users admin=${seed.activeUserIds.admin} manager=${seed.activeUserIds.manager ?? 'none'} employee=${seed.activeUserIds.employee ?? 'none'} (all active: ${seed.allActiveUserIds.join(',')}); inactive user ${seed.inactiveUserId ?? 'none'}`,
    `seed jobs ${seed.jobIds.join(',')}; tasks ${seed.taskIds.join(',')}; break rules ${seed.breakRuleIds.join(',')}`,
    `seed timesheets ${seed.timesheetIds.join(',') || 'none'} (open: ${seed.openTimesheetId ?? 'none'}); ${seed.breakCount} breaks; webhook ${seed.webhookUrl ?? 'none'}`,
  ];
}

/** The lines `serve --second-company` prints of the second company: its token's source, timezone, seed and the rate-limit windows. */
export function describeSecondCompany(company: SecondCompany, tokenSource: string, windows: RateLimitWindows): string[] {
  const seed = company.seed;
  return [
    `second company token ${tokenSource}`,
    `second company timezone ${company.companyTimezone}; rate-limit windows ${windows === 'shared' ? "shared: both companies' calls count in one" : 'per token: each company its own'}`,
    `second company users: admin=${seed.activeUserIds.admin} manager=${seed.activeUserIds.manager ?? 'none'} employee=${seed.activeUserIds.employee ?? 'none'} (all active: ${seed.allActiveUserIds.join(',')}); inactive user ${seed.inactiveUserId ?? 'none'}`,
    `second company jobs ${seed.jobIds.join(',')}; tasks ${seed.taskIds.join(',')}; break rules ${seed.breakRuleIds.join(',')}; schedules ${seed.scheduleIds.join(',')}`,
    `second company timesheets ${seed.timesheetIds.join(',')}; ${seed.breakCount} breaks; webhook ${seed.webhookUrl ?? 'none'}`,
  ];
}

/**
 * `serve --ipc`: the listening announcement goes to the parent process (spawnEmbeddedTarget,
 * ServeAnnouncement), never to stdout; the server stops on SIGTERM or when the parent goes.
 */
async function announceOverIpc(server: ReferenceServer, rateLimit: RateLimitSetting | null): Promise<number> {
  if (!process.send) throw new UsageError('--ipc needs a parent process with an IPC channel (clockcheck run starts it so)');
  const announcement: ServeAnnouncement = {
    kind: 'listening',
    origin: server.origin,
    token: server.token,
    caPem: server.tls.caPem,
    companyTimezone: server.companyTimezone,
    dialect: server.dialect.name,
    rateLimit,
    secondCompany: server.secondCompany ? { token: server.secondCompany.token, breakRuleIds: server.secondCompany.seed.breakRuleIds, rateLimitWindows: server.rateLimitWindows } : null,
    seed: server.seed,
  };
  process.send(announcement);
  process.on('message', (message) => {
    const request = SetRateLimitRequest.safeParse(message);
    if (!request.success) return;
    server.setRateLimit(request.data.rateLimit);
    process.send?.({ kind: 'rate-limit-set', rateLimit: request.data.rateLimit });
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    process.once('disconnect', resolve);
  });
  await server.close();
  if (process.connected) process.disconnect();
  return 0;
}

export async function serveCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(SERVE_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  if (options['list-faults']) {
    listFaults();
    return 0;
  }
  for (const name of options.fault) serverFaultByName(name); // a name no fault has is a UsageError with a suggestion
  if (Boolean(options.cert) !== Boolean(options.key)) throw new UsageError('--cert and --key go together');
  const rateLimit = options['rate-limit'];
  const counting = options['rate-limit-counts'];
  const given = options.token ?? process.env.CLOCKCHECK_TOKEN;
  const secondGiven = process.env.CLOCKCHECK_SECOND_TOKEN;
  if (!options['second-company'] && options['second-timezone'] !== undefined) throw new UsageError('--second-timezone goes with --second-company');
  const server = await startReferenceServer({
    port: options.port,
    host: options.host,
    token: given || undefined,
    ...(options['second-company'] ? { secondCompanyToken: secondGiven || randomBytes(24).toString('base64url'), secondCompanyTimezone: options['second-timezone'] ?? options.timezone } : {}),
    rateLimitWindows: options['rate-limit-windows'],
    rateLimit,
    rateLimitCounting: counting,
    companyTimezone: options.timezone,
    faults: options.fault,
    dialect: options.dialect,
    seed: options['seed-data'],
    ids: options.ids,
    versions: options.versions,
    tls: options.cert && options.key ? tlsIdentityFromPem(await readPemFile(options.cert), await readPemFile(options.key)) : undefined,
    onError: (error) => console.error('handler error:', error),
  });
  if (options.ipc) return announceOverIpc(server, rateLimit);
  const caFile = await writeCaFile(server.tls, options['ca-out'] ?? join(tmpdir(), `clockcheck-${server.port}`));
  const tokenSource = options.token ? '(from --token)' : process.env.CLOCKCHECK_TOKEN ? '(from CLOCKCHECK_TOKEN)' : server.token;
  console.log(`listening ${server.origin}`);
  for (const line of describeServer(server, caFile, tokenSource)) console.log(line);
  if (server.secondCompany) {
    for (const line of describeSecondCompany(server.secondCompany, secondGiven ? '(from CLOCKCHECK_SECOND_TOKEN)' : server.secondCompany.token, server.rateLimitWindows)) console.log(line);
  }
  console.log(`rate limit ${rateLimit ? `${rateLimit.limit} calls per ${rateLimit.windowMs / 1000}s${counting === 'attempts' ? ', refused calls counted too' : ''}` : 'off'}; try: curl --cacert ${caFile} -H "Authorization: $CLOCKCHECK_TOKEN" ${server.origin}/api/public/users`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
