import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createRequestListener } from './app.ts';
import { generateTlsIdentity, type TlsIdentity } from '../tls/certificate.ts';
import type { Clock } from '../clock.ts';
import { ServerContext } from './context.ts';
import { serverFaultByName, type FaultName } from './faults.ts';
import type { LoadFaultName } from './load-faults.ts';
import {
  FixedWindowLimiter,
  NoLimiter,
  RacyWindowLimiter,
  SlidingWindowLimiter,
  type RateLimiter,
  type RateLimitCounting,
} from './rate-limiter.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import { seed, type SeedName, type SeedSummary } from './seed.ts';
import { seedTwoCompanies, type SecondCompanySeed } from './companies/second-company-seed.ts';
import type { CompanyToken } from './auth.ts';
import type { RateLimitWindows } from './rate-limit-key.ts';
import { UsageError } from '../errors.ts';
import { DIALECTS, type Dialect, type DialectName } from './dialect.ts';
import type { IdWire } from './id-wire.ts';

export interface ReferenceServerOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The access token (the first company's); generated when absent. */
  readonly token?: string;
  /**
   * The second company's access token. Given, the server serves two companies in one shared
   * database, each token reaching only its own company's records (docs/reference-server.md, "Two
   * companies"); absent, one company, exactly as ever. It must differ from `token`.
   */
  readonly secondCompanyToken?: string;
  /** The second company's timezone (default: `companyTimezone`, the first company's). */
  readonly secondCompanyTimezone?: string;
  /**
   * Whether the companies' tokens count in one rate-limit window (`shared`, the default) or each in
   * its own (`per-token`); both readings of §8. Calls no token authenticates count per address either way.
   */
  readonly rateLimitWindows?: RateLimitWindows;
  /** null turns the limit off; default 60 calls per 60 s (§8). */
  readonly rateLimit?: RateLimitSetting | null;
  /** Which calls the limit counts: the served ones (default) or every attempt, refused ones too. */
  readonly rateLimitCounting?: RateLimitCounting;
  /**
   * Replaces the limiter the setting and faults would pick, e.g. another limiter that also follows §8
   * (tests of the rate-limit checks use this to prove they accept other valid designs).
   */
  readonly limiter?: RateLimiter;
  readonly companyTimezone?: string;
  readonly faults?: readonly string[];
  /** Version labels served besides `public` (§9). Default `['v2']`. */
  readonly versions?: readonly string[];
  /** A TLS identity; a fresh CA and certificate are generated when absent. */
  readonly tls?: TlsIdentity;
  /** How to answer where the spec says "not shown" (default: standard). */
  readonly dialect?: DialectName;
  /** The data it starts with (default: standard; `fresh` is a company just set up: its admin and nothing the API can create). */
  readonly seed?: SeedName;
  readonly onError?: (error: unknown) => void;
  /** How the IDs of created records are written and read (default `integer`; reference/id-wire.ts). */
  readonly ids?: IdWire;
  /** The time its limiter counts calls by (default SYSTEM_CLOCK; a test's controlled clock). */
  readonly clock?: Clock;
}

export interface ReferenceServer {
  /** `https://127.0.0.1:PORT`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  readonly tls: TlsIdentity;
  /** The first company's seed. */
  readonly seed: SeedSummary;
  /** The second company, when `secondCompanyToken` was given; null otherwise. */
  readonly secondCompany: SecondCompany | null;
  readonly rateLimitWindows: RateLimitWindows;
  readonly faults: readonly (FaultName | LoadFaultName)[];
  readonly companyTimezone: string;
  /** The limit the server enforces (null: none), as configured; a rate-limit fault changes how, not this. */
  readonly rateLimit: RateLimitSetting | null;
  /**
   * Enforces another limit from now on, on a fresh limiter (no call counted yet; the active faults
   * still apply). The embedded certification serves its paced checks at a quick window and its
   * rate-limit phase at the profile's (docs/rate-limit-and-load.md, "The two windows of the embedded server").
   */
  setRateLimit(setting: RateLimitSetting | null): void;
  /** How it answers where the spec says "not shown" (the context's dialect). */
  readonly dialect: Dialect;
  readonly context: ServerContext;
  /** §5.4: revokes the (first company's) token (as the revoke-key button does); every later request with it is refused. */
  revokeToken(): void;
  close(): Promise<void>;
}

/** The second company a server serves (ReferenceServerOptions.secondCompanyToken). */
export interface SecondCompany {
  readonly token: string;
  readonly seed: SecondCompanySeed;
  readonly companyTimezone: string;
  /** §5.4: revokes the second company's token; the first company's keeps working. */
  revokeToken(): void;
}

/**
 * Seeds the companies the options ask for: the first alone (exactly as a server of one company
 * always was), or both, their IDs interleaved (second-company-seed.ts). Their tokens and seeds.
 */
function seedCompanies(ctx: ServerContext, options: ReferenceServerOptions, token: string): { tokens: CompanyToken[]; seed: SeedSummary; second: SecondCompany | null } {
  const secondToken = options.secondCompanyToken;
  if (secondToken === undefined) return { tokens: [{ token, company: ctx.firstCompany }], seed: seed(ctx, options.seed), second: null };
  if (secondToken === '' || secondToken === token) throw new UsageError("the second company's token must be a token of its own: not empty, not the first company's");
  const company = ctx.addCompany(options.secondCompanyTimezone ?? ctx.companyTimezone);
  const seeded = seedTwoCompanies(ctx, options.seed ?? 'standard', company);
  const second: SecondCompany = {
    token: secondToken,
    seed: seeded.second,
    companyTimezone: company.timezone,
    revokeToken: () => {
      company.tokenRevoked = true;
    },
  };
  return { tokens: [{ token, company: ctx.firstCompany }, { token: secondToken, company }], seed: seeded.first, second };
}

export const DEFAULT_RATE_LIMIT: RateLimitSetting = { limit: 60, windowMs: 60_000 };

/** The limiter for a setting and the active faults: the sliding window, or the faulty kind a fault asks for. */
export function limiterFor(setting: RateLimitSetting | null, ctx: ServerContext, counting: RateLimitCounting = 'served'): RateLimiter {
  if (setting === null || ctx.fault('rate-limit-off')) return new NoLimiter();
  const { limit, windowMs } = setting;
  if (ctx.fault('rate-limit-race')) return new RacyWindowLimiter(limit, windowMs);
  if (ctx.fault('rate-limit-fixed-window')) return new FixedWindowLimiter(limit, windowMs);
  if (ctx.fault('rate-limit-clock-window')) return new FixedWindowLimiter(limit, windowMs, 'clock');
  if (ctx.fault('rate-limit-one-extra')) return new SlidingWindowLimiter(limit + 1, windowMs);
  if (ctx.fault('rate-limit-too-strict')) return new SlidingWindowLimiter(Math.max(1, limit - 1), windowMs);
  return new SlidingWindowLimiter(limit, windowMs, !ctx.fault('rate-limit-never-resets'), counting);
}

const TLS_HANDSHAKE = 0x16;
const PLAIN_HTTP_REFUSAL =
  'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 36\r\n\r\nThis server only speaks HTTPS (TLS).';

/**
 * Starts the reference server. One TCP port: a TLS ClientHello goes to the HTTPS server; anything else
 * is plain HTTP, which is refused with a short non-API answer (§1: plain HTTP is not served), unless the
 * `plain-http-served` fault is on.
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const faults = (options.faults ?? []).map((name) => serverFaultByName(name));
  const companyTimezone = options.companyTimezone ?? 'America/Chicago';
  const ctx = new ServerContext(companyTimezone, new Set(faults), DIALECTS[options.dialect ?? 'standard']);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const companies = seedCompanies(ctx, options, token);
  ctx.ids = options.ids ?? 'integer';
  const rateLimitWindows = options.rateLimitWindows ?? 'shared';
  const tls = options.tls ?? (await generateTlsIdentity());
  let rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  let limiter = options.limiter ?? limiterFor(rateLimit, ctx, options.rateLimitCounting);
  const listener = createRequestListener({
    ctx,
    tokens: companies.tokens,
    rateLimitWindows,
    limiter: { attempt: (key, now) => limiter.attempt(key, now) },
    versions: options.versions ?? ['v2'],
    onError: options.onError,
    ids: ctx.ids,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const https = createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, listener);
  const plain = createHttpServer(listener);
  const sockets = new Set<Socket>();
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) https.emit('connection', socket);
      else if (ctx.fault('plain-http-served')) {
        plain.emit('connection', socket);
        socket.resume(); // the http server reads with a 'data' listener, which does not undo pause()
      }
      else socket.end(PLAIN_HTTP_REFUSAL);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (front.address() as AddressInfo).port;
  return {
    origin: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    token,
    tls,
    seed: companies.seed,
    secondCompany: companies.second,
    rateLimitWindows,
    faults,
    companyTimezone,
    get rateLimit() {
      return rateLimit;
    },
    setRateLimit: (setting) => {
      rateLimit = setting;
      limiter = limiterFor(setting, ctx, options.rateLimitCounting);
    },
    dialect: ctx.dialect,
    context: ctx,
    revokeToken: () => {
      ctx.tokenRevoked = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  };
}
