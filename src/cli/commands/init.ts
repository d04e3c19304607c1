import { access, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ClockcheckError, UsageError } from '../../errors.ts';
import { discoverProfile } from '../../init/discover-profile.ts';
import { discoveredKeys, renderProfileYaml } from '../../init/profile-yaml.ts';
import { parseRateLimit } from '../../contract/rate-limit.ts';
import { toolVersion } from '../../version.ts';
import { defaultProfile, parseProfile } from '../../profile/profile.ts';
import { parseCommandArgs } from '../args.ts';
import { resolveTargetAccess } from '../target-access.ts';

const DEFAULT_OUT = 'clockcheck.profile.yaml';

const USAGE = `clockcheck init --target https://host[:port] [--ca FILE | --insecure] [--out FILE] [--force]
                [--probe-writes] [--rate-limit 60/60s] [--token-env NAME] [--allow-http] [--quiet]

Writes a target profile from the target's own answers, for \`clockcheck run --profile FILE\`.
Read-only by default: about 17 GET requests, paced like run (60 calls a minute unless --rate-limit),
with progress on stderr. It finds active and inactive users and users of each role (the active and
role filters, cross-checked against the records), a job, a task, a break rule and a closed timesheet,
how records spell their fields and where lists put their items, which sort spelling is honored,
whether page_size 101 is clamped or rejected, the form of page links, a versioned prefix, and the
status of a refused token. Every key comes with a comment saying which request showed it; a key it
could not establish is left as a commented line saying what to fill in. It never guesses, and never
writes the token (it is read from CLOCKCHECK_TOKEN, or --token-env NAME).
--probe-writes    three writes more: a user create (its status and where the created ID is, id_pointer),
                  a create with a 5-character password (the validation status), and an edit of the
                  created user (the update status); it says what it created
--out FILE        where to write (default ${DEFAULT_OUT}); an existing file is kept unless --force
Exit codes: 0 written, 2 not written (bad usage, target unreachable, token refused, file exists).`;

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export async function initCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('init', argv, {
    target: { type: 'string' },
    ca: { type: 'string' },
    insecure: { type: 'boolean', default: false },
    out: { type: 'string', default: DEFAULT_OUT },
    force: { type: 'boolean', default: false },
    'probe-writes': { type: 'boolean', default: false },
    'rate-limit': { type: 'string', default: '60/60s' },
    'token-env': { type: 'string', default: 'CLOCKCHECK_TOKEN' },
    'allow-http': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.target) throw new UsageError('init: name the server with --target https://host[:port] (the spec\'s {base_url})');
  if (values.ca && values.insecure) throw new UsageError('init: --ca and --insecure exclude each other');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values['token-env'])) throw new UsageError(`init: --token-env "${values['token-env']}" is not an environment variable name`);
  const out = resolve(values.out);
  if (!values.force && (await exists(out))) throw new UsageError(`init: ${values.out} exists; pass --force to overwrite it, or --out another file`);
  let rateLimit;
  try {
    rateLimit = parseRateLimit(values['rate-limit']);
  } catch (error) {
    throw new UsageError(`init: ${(error as Error).message}`);
  }
  if (!rateLimit) throw new UsageError('init: --rate-limit off is not allowed: init paces itself like run');

  const access = await resolveTargetAccess(values.target, { ...defaultProfile(), token_env: values['token-env'] }, { ca: values.ca, insecure: values.insecure, allowHttp: values['allow-http'] });
  const found = await discoverProfile({
    origin: access.origin,
    token: access.token,
    ...(access.caPem ? { caPem: access.caPem } : {}),
    insecure: access.insecure,
    allowPlainHttp: values['allow-http'],
    rateLimit,
    probeWrites: values['probe-writes'],
    progress: values.quiet ? null : process.stderr,
  });
  const text = renderProfileYaml(found, {
    target: access.origin,
    tokenEnv: values['token-env'],
    ...(values.ca ? { caFile: resolve(values.ca) } : {}),
    insecure: access.insecure,
    toolVersion: toolVersion(),
    writtenAt: new Date(),
  });
  try {
    parseProfile(text, values.out); // what init writes, run must read as it is
  } catch (error) {
    throw new ClockcheckError('CLOCKCHECK_INTERNAL', `init wrote a profile that does not parse (a bug, please report it): ${(error as Error).message}`);
  }
  await writeFile(out, text, { flag: values.force ? 'w' : 'wx' });

  const keys = discoveredKeys(found);
  console.log(`wrote ${values.out} for ${access.origin}: ${keys.found.length} keys found, ${keys.missing.length} left for you`);
  for (const [key, value] of keys.found) console.log(`  found      ${key}: ${JSON.stringify(value)}`);
  for (const [key, why] of keys.missing) console.log(`  not found  ${key}: ${why.length > 150 ? `${why.slice(0, 150)}…` : why}`);
  for (const warning of found.warnings) console.log(`  warning    ${warning}`);
  for (const created of found.writes?.created ?? []) console.log(`  created    ${created}`);
  console.log(
    `${found.requests} requests (${found.writes ? 'read-only, then writes' : 'read-only'}); they count against the target's limit (${rateLimit.limit} calls per ${rateLimit.windowMs / 1000} s) for one window.`,
  );
  console.log(`next: clockcheck run --profile ${values.out}`);
  return 0;
}
