import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ClockcheckError } from '../errors.ts';
import { DIALECTS, type DialectName } from '../reference/dialect.ts';
import { SEED_NAMES } from '../reference/seed.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { EMBEDDED_WINDOWS, type EmbeddedFacts } from './embedded-profile.ts';

/**
 * The clockcheck entry a child process runs: the same code as this process. Bundled (this module's
 * URL is then dist/embedded/embedded-process.js), the package's dist/bin/clockcheck.js; from the TypeScript
 * sources (tsx, vitest), the checkout's development launcher, bin/clockcheck-dev.mjs.
 */
const BIN = import.meta.url.endsWith('.ts')
  ? fileURLToPath(new URL('../../bin/clockcheck-dev.mjs', import.meta.url))
  : fileURLToPath(new URL('../bin/clockcheck.js', import.meta.url));

/** How long the embedded server may take to start listening; then the run gives up. */
const START_TIMEOUT_MS = 30_000;
/** How long it may take to stop after SIGTERM; then it is killed. */
const STOP_TIMEOUT_MS = 5_000;
/** How long it may take to confirm a new rate limit. */
const SET_RATE_LIMIT_TIMEOUT_MS = 5_000;
/** The tail of the server's stderr kept for an error message. */
const STDERR_TAIL_CHARS = 4_096;

/** What `clockcheck serve --ipc` announces over the IPC channel once it listens. */
export const ServeAnnouncement = z.object({
  kind: z.literal('listening'),
  origin: z.string().startsWith('https://'),
  token: z.string().min(1),
  caPem: z.string().min(1),
  companyTimezone: z.string(),
  dialect: z.enum(Object.keys(DIALECTS) as [DialectName, ...DialectName[]]),
  rateLimit: z.object({ limit: z.number().int().positive(), windowMs: z.number().positive() }).nullable(),
  secondCompany: z.object({ token: z.string().min(1), breakRuleIds: z.array(z.number()).readonly(), rateLimitWindows: z.enum(['shared', 'per-token']) }).nullable(),
  seed: z.object({
    name: z.enum(SEED_NAMES),
    activeUserIds: z.object({ admin: z.number(), manager: z.number().nullable(), employee: z.number().nullable() }),
    allActiveUserIds: z.array(z.number()).readonly(),
    inactiveUserId: z.number().nullable(),
    jobIds: z.array(z.number()).readonly(),
    taskIds: z.array(z.number()).readonly(),
    breakRuleIds: z.array(z.number()).readonly(),
    timesheetIds: z.array(z.number()).readonly(),
    openTimesheetId: z.number().nullable(),
    breakCount: z.number(),
    webhookUrl: z.string().nullable(),
  }),
});
export type ServeAnnouncement = z.infer<typeof ServeAnnouncement>;

const RateLimitMessage = z.object({ limit: z.number().int().positive(), windowMs: z.number().positive() });

/** What the parent asks of `clockcheck serve --ipc`: another rate limit from now on, on a fresh limiter. */
export const SetRateLimitRequest = z.object({ kind: z.literal('set-rate-limit'), rateLimit: RateLimitMessage });
export type SetRateLimitRequest = z.infer<typeof SetRateLimitRequest>;

/** The server's answer once the new limit is in force. */
export const RateLimitSet = z.object({ kind: z.literal('rate-limit-set'), rateLimit: RateLimitMessage });

/** The embedded reference server in a process of its own: its facts, and how to stop it. */
export interface EmbeddedProcess extends EmbeddedFacts {
  readonly origin: string;
  readonly token: string;
  /** The second company's token, when the server serves one (EmbeddedProcessOptions.secondCompany). */
  readonly secondToken: string | undefined;
  readonly caPem: string;
  /**
   * Has the server enforce `setting` from now on, on a fresh limiter (ReferenceServer.setRateLimit).
   * @throws ClockcheckError `CLOCKCHECK_EMBEDDED_SERVER` when the server does not confirm within 5 s.
   */
  setRateLimit(setting: RateLimitSetting): Promise<void>;
  /** Stops the server process (SIGTERM, then SIGKILL after 5 s). */
  close(): Promise<void>;
}

export interface EmbeddedProcessOptions {
  readonly faults: readonly string[];
  readonly rateLimit: RateLimitSetting;
  readonly dialect?: DialectName;
  /** Serve a second company too (`serve --second-company`), its token made by the server and announced. */
  readonly secondCompany?: boolean;
}

/**
 * Starts the reference server as a child process (`clockcheck serve --ipc`), the target of
 * `clockcheck run` without `--target`. The harness then certifies it like any other target: the
 * server's work and memory are its own (a run's figures are the harness's), and it runs on another
 * core. The token, the CA and the seed data come over the IPC channel (never printed); the child
 * exits when this process goes.
 * @throws ClockcheckError `CLOCKCHECK_EMBEDDED_SERVER` when it does not listen within 30 s or exits first.
 */
export async function spawnEmbeddedTarget(options: EmbeddedProcessOptions): Promise<EmbeddedProcess> {
  const { limit, windowMs } = options.rateLimit;
  const args = [BIN, 'serve', '--ipc', '--port', '0', '--rate-limit', `${limit}/${windowMs}ms`, '--dialect', options.dialect ?? 'standard', ...options.faults.flatMap((f) => ['--fault', f]), ...(options.secondCompany ? ['--second-company', '--rate-limit-windows', EMBEDDED_WINDOWS] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: withoutToken(process.env) });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const announcement = await new Promise<ServeAnnouncement>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new ClockcheckError('CLOCKCHECK_LISTEN', `the embedded reference server ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`did not start listening within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(`could not be started (${error.message})`));
    child.once('exit', (code, signal) => fail(`exited before it listened (${signal ?? `exit code ${code}`})`));
    child.once('message', (message) => {
      const parsed = ServeAnnouncement.safeParse(message);
      if (!parsed.success) return fail(`announced itself in an unexpected form (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(parsed.data);
    });
  });
  return {
    origin: announcement.origin,
    token: announcement.token,
    secondToken: announcement.secondCompany?.token,
    secondCompany: announcement.secondCompany ? { seed: { breakRuleIds: announcement.secondCompany.breakRuleIds } } : null,
    rateLimitWindows: announcement.secondCompany?.rateLimitWindows ?? 'shared',
    caPem: announcement.caPem,
    seed: announcement.seed,
    companyTimezone: announcement.companyTimezone,
    rateLimit: announcement.rateLimit,
    dialect: DIALECTS[announcement.dialect],
    setRateLimit: (setting) => setRateLimit(child, setting),
    close: () => stop(child),
  };
}

/** Sends a SetRateLimitRequest and waits for the server's RateLimitSet. */
function setRateLimit(child: ChildProcess, setting: RateLimitSetting): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: ClockcheckError) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (message: unknown) => {
      if (RateLimitSet.safeParse(message).success) settle();
    };
    const onExit = () => settle(new ClockcheckError('CLOCKCHECK_LISTEN', 'the embedded reference server exited before it took the new rate limit'));
    const timer = setTimeout(() => settle(new ClockcheckError('CLOCKCHECK_LISTEN', `the embedded reference server did not confirm the new rate limit within ${SET_RATE_LIMIT_TIMEOUT_MS / 1000} s`)), SET_RATE_LIMIT_TIMEOUT_MS);
    child.on('message', onMessage);
    child.once('exit', onExit);
    const request: SetRateLimitRequest = { kind: 'set-rate-limit', rateLimit: setting };
    child.send(request);
  });
}

/** SIGTERM, and SIGKILL when it has not exited within STOP_TIMEOUT_MS. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The environment without CLOCKCHECK_TOKEN: the embedded server makes its own token. */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CLOCKCHECK_TOKEN: _token, CLOCKCHECK_SECOND_TOKEN: _second, ...rest } = env;
  return rest;
}
