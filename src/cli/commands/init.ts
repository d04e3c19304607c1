import { jsonText } from '../../contract/json-text.ts';
import { access, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ClockcheckError, UsageError } from '../../errors.ts';
import { discoverProfile, type DiscoveredProfile, type InitOptions } from '../../init/discover-profile.ts';
import type { Exchange } from '../../client/exchange.ts';
import { Redactor } from '../../client/redaction.ts';
import { retainExchange } from '../../client/retained.ts';
import { discoveredKeys, renderProfileYaml } from '../../init/profile-yaml.ts';
import { toolVersion } from '../../version.ts';
import { parseDuration } from '../../duration.ts';
import { defaultProfile, parseProfile } from '../../profile/profile.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { pacingRateLimit } from '../option-parsers.ts';
import { resolveTargetAccess, secondToken } from '../target-access.ts';

const DEFAULT_OUT = 'clockcheck.profile.yaml';

export const INIT_COMMAND = defineCommand({
  name: 'init',
  description: `Writes a target profile from the target's own answers, for \`clockcheck run --profile FILE\`.
Read-only by default: about 15 GET requests, paced like run (60 calls a minute unless --rate-limit),
with progress on stderr. It finds active and inactive users and users of each role (the active and
role filters, cross-checked against the records), a job, a task, a break rule and a closed timesheet,
how records spell their fields and where lists put their items, which sort spelling is honored,
whether page_size 101 is clamped or rejected, the form of page links, a versioned prefix, and the
status of a refused token, and the rate limit (--rate-limit, else the X-RateLimit-Limit or
RateLimit-Policy the answers carry). Every key comes with a comment saying which request showed it;
a key it could not establish is left as a commented line saying what to fill in. It never guesses,
and never writes the token (it is read from CLOCKCHECK_TOKEN, or the variable --token-env names).
--har also writes init's exchanges, redacted, as HAR 1.2 beside the profile (FILE.har for --out FILE.yaml),
also when init stops before writing the profile.
Exit codes: 0 written, 2 not written (bad usage, target unreachable, token refused, file exists).`,
  options: {
    target: { kind: 'string', placeholder: 'https://host[:port]', required: true, help: "the server: the spec's {base_url}; /api/public is added" },
    ca: { kind: 'string', placeholder: 'FILE', help: "the CA certificate (PEM) that signed the target's certificate" },
    insecure: { kind: 'boolean', help: 'skip certificate verification (not with --ca)' },
    out: { kind: 'string', placeholder: 'FILE', default: DEFAULT_OUT, help: 'where to write; an existing file is kept unless --force' },
    force: { kind: 'boolean', help: 'overwrite --out' },
    'probe-writes': {
      kind: 'boolean',
      help: 'three writes more: a user create (its status and where the created ID is, id_pointer), a create with a 5-character password (the validation status), and an edit of the created user (the update status); it says what it created',
    },
    'rate-limit': {
      kind: 'parsed',
      placeholder: 'LIMIT/WINDOW',
      parse: pacingRateLimit,
      defaultHelp: "the spec's 60/60s for pacing; the profile gets the limit the answers' headers state",
      help: "the target's limit: init paces itself by it and writes it as the profile's rate_limit",
    },
    'token-env': { kind: 'parsed', placeholder: 'NAME', default: 'CLOCKCHECK_TOKEN', parse: environmentVariableName, help: 'the environment variable that holds the token' },
    'second-token-env': {
      kind: 'parsed',
      placeholder: 'NAME',
      parse: environmentVariableName,
      help: "the environment variable that holds a second company's administrator token: its side is discovered too (read-only) and the profile names it as second_company, for the isolation checks",
    },
    'allow-http': { kind: 'boolean', help: 'read a plain-HTTP development server' },
    quiet: { kind: 'boolean', help: 'no progress on stderr' },
    har: { kind: 'boolean', help: "also write init's exchanges, redacted, as HAR 1.2 beside --out (FILE.har for FILE.yaml), even when init fails" },
  },
});

/** An environment variable's name, as the profile's token_env holds it. */
function environmentVariableName(text: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) throw new UsageError(`"${text}" is not an environment variable name`);
  return text;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export async function initCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(INIT_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  const rateLimit = options['rate-limit'];
  if (options.ca && options.insecure) throw new UsageError('init: --ca and --insecure exclude each other');
  const out = resolve(options.out);
  if (!options.force && (await exists(out))) throw new UsageError(`init: ${options.out} exists; pass --force to overwrite it, or --out another file`);
  const har = options.har ? harPathOf(options.out) : null;
  if (har !== null && !options.force && (await exists(har))) throw new UsageError(`init: ${har} exists; pass --force to overwrite it, or --out another file`);

  const access = await resolveTargetAccess(options.target, { ...defaultProfile(), token_env: options['token-env'] }, { ca: options.ca, insecure: options.insecure, allowHttp: options['allow-http'] });
  const secondEnv = options['second-token-env'];
  const second = secondEnv === undefined ? undefined : secondToken({ ...defaultProfile(), token_env: options['token-env'], second_company: { token_env: secondEnv, rate_limit: 'shared', foreign_ids: 'either', ids: 'unknown' } }, access.token);
  const discovery: InitOptions = {
    origin: access.origin,
    token: access.token,
    ...(second !== undefined && secondEnv !== undefined ? { secondToken: { env: secondEnv, value: second } } : {}),
    ...(access.caPem ? { caPem: access.caPem } : {}),
    insecure: access.insecure,
    allowPlainHttp: options['allow-http'],
    ...(rateLimit ? { rateLimit } : {}),
    probeWrites: options['probe-writes'],
    progress: options.quiet ? null : process.stderr,
  };
  const found = har === null ? await discoverProfile(discovery) : await discoverWithHar(discovery, { file: har, force: options.force });
  const text = renderProfileYaml(found, {
    target: access.origin,
    tokenEnv: options['token-env'],
    ...(options.ca ? { caFile: resolve(options.ca) } : {}),
    insecure: access.insecure,
    toolVersion: toolVersion(),
    writtenAt: new Date(),
  });
  try {
    parseProfile(text, options.out); // what init writes, run must read as it is
  } catch (error) {
    throw new ClockcheckError('CLOCKCHECK_INTERNAL', `init wrote a profile that does not parse (a bug, please report it): ${(error as Error).message}`);
  }
  await writeFile(out, text, { flag: options.force ? 'w' : 'wx' });

  const keys = discoveredKeys(found);
  console.log(`wrote ${options.out} for ${access.origin}: ${keys.found.length} keys found, ${keys.missing.length} left for you`);
  for (const [key, value] of keys.found) console.log(`  found      ${key}: ${jsonText(value)}`);
  for (const [key, why] of keys.missing) console.log(`  not found  ${key}: ${why.length > 150 ? `${why.slice(0, 150)}…` : why}`);
  for (const warning of found.warnings) console.log(`  warning    ${warning}`);
  for (const created of found.writes?.created ?? []) console.log(`  created    ${created}`);
  if (har !== null) console.log(`  exchanges  ${har} (HAR 1.2, redacted)`);
  const limit = found.rateLimit.value ?? { limit: 60, window: '60s' };
  console.log(
    `${found.requests} requests (${found.writes ? 'read-only, then writes' : 'read-only'}); they count against the target's limit (${limit.limit} calls per ${(parseDuration(limit.window) ?? 60_000) / 1000} s) for one window.`,
  );
  console.log(`next: clockcheck run --profile ${options.out}`);
  return 0;
}

/** Where `--har` writes: --out with `.har` for its `.yaml`/`.yml` (added when it has neither). */
function harPathOf(out: string): string {
  return /\.ya?ml$/i.test(out) ? out.replace(/\.ya?ml$/i, '.har') : `${out}.har`;
}

/**
 * discoverProfile, with its exchanges (redacted, kept as a report keeps them) written to `har.file`
 * as HAR 1.2, also when discovery stops (the exchanges then say why); that failure is the one thrown.
 */
async function discoverWithHar(options: InitOptions, har: { readonly file: string; readonly force: boolean }): Promise<DiscoveredProfile> {
  const exchanges: Exchange[] = [];
  const write = async () => {
    const { harOf, renderHar } = await import('../../report/har.ts');
    const redactor = new Redactor(options.token, options.secondToken ? [options.secondToken.value] : []);
    const comment = `clockcheck init of ${options.origin}: its exchanges, in the order sent. The token is redacted ([REDACTED]). Each exchange is timed whole (from sending to the end of its body), as timings.wait.`;
    const text = renderHar(harOf({ version: toolVersion(), comment, exchanges: exchanges.map((exchange) => ({ exchange, checkIds: [] })) }, { redact: (t) => redactor.text(t) }));
    await writeFile(resolve(har.file), text, { encoding: 'utf8', flag: har.force ? 'w' : 'wx' });
  };
  let found: DiscoveredProfile;
  try {
    found = await discoverProfile({ ...options, onExchange: (exchange) => exchanges.push(retainExchange(exchange)) });
  } catch (error) {
    if (exchanges.length > 0) {
      await write().then(
        () => console.log(`wrote ${har.file}: init's ${exchanges.length} exchanges (HAR 1.2, redacted); no profile was written`),
        () => undefined, // the failure of init is the news, not that of its HAR
      );
    }
    throw error;
  }
  await write();
  return found;
}
