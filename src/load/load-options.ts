import { z } from 'zod';
import { parseDuration } from '../duration.ts';
import { UsageError } from '../errors.ts';
import type { HttpMethod } from '../client/exchange.ts';
import { parseThreshold, type Threshold } from './ensure.ts';

/** Connections autocannon may open: 1 to 256. */
export const CONNECTIONS = { min: 1, max: 256, default: 10 } as const;
/** Hard caps, so a typo cannot turn into an hour-long or million-call run by accident. */
export const MAX_DURATION_SECONDS = 300;
export const MAX_AMOUNT = 1_000_000;
export const DEFAULT_DURATION_SECONDS = 10;
export const MAX_RATE = 1_000_000;

/**
 * A load run sends no request body and should change nothing on a shared server, so it reads. HEAD
 * is not offered: autocannon 9's parser waits for the body a HEAD response announces, so every call
 * would end in a timeout.
 */
const LOAD_METHODS = ['GET'] as const satisfies readonly HttpMethod[];

/** The one operation a load run calls: `GET:/breaks`, `GET:/users?page_size=100`. */
export interface LoadEndpoint {
  readonly method: (typeof LOAD_METHODS)[number];
  /** Relative to the API prefix (`/api/public`), with any query string. */
  readonly path: string;
}

/** When a load run stops: after a time, or after a number of responses. */
export type LoadStop = { readonly kind: 'duration'; readonly seconds: number } | { readonly kind: 'amount'; readonly requests: number };

/** The resolved options of `clockcheck load`. */
export interface LoadOptions {
  readonly endpoint: LoadEndpoint;
  readonly connections: number;
  readonly stop: LoadStop;
  /** Requests per second over all connections; null sends as fast as the target answers. */
  readonly rate: number | null;
  /** `--ensure`: thresholds the run must meet, each a line of the verdict; empty: the default checks only. */
  readonly ensure: readonly Threshold[];
}

/**
 * `METHOD:/path[?query]` → the endpoint.
 * @throws UsageError naming `--endpoint` and showing the expected form.
 */
export function parseEndpoint(text: string): LoadEndpoint {
  const match = /^([A-Za-z]+):(\/\S*)$/.exec(text.trim());
  const method = match?.[1]?.toUpperCase();
  if (!match || !method) throw new UsageError(`--endpoint "${text}" is not METHOD:/path, e.g. GET:/breaks or GET:/users?page_size=100`);
  if (!(LOAD_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`--endpoint ${method} is not offered: a load run sends no body and changes nothing, so it calls ${LOAD_METHODS.join(' or ')} only`);
  }
  const path = match[2] as string;
  if (/^\/api\/public(\/|\?|$)/.test(path)) throw new UsageError(`--endpoint is relative to /api/public: use ${method}:${path.slice('/api/public'.length) || '/'}`);
  return { method: method as LoadEndpoint['method'], path };
}

const integerText = (name: string, min: number, max: number) =>
  z
    .string()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, { message: `--${name} must be an integer from ${min} to ${max}` })
    .transform(Number);

const durationText = z
  .string()
  .transform((v, ctx) => {
    // A bare number is seconds, as autocannon takes it; otherwise 30s, 2m, 1500ms.
    const ms = /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) * 1000 : parseDuration(v);
    if (ms === null || ms < 1000 || ms > MAX_DURATION_SECONDS * 1000) {
      ctx.addIssue({ code: 'custom', message: `--duration must be from 1s to ${MAX_DURATION_SECONDS}s (e.g. 30s or 2m), got "${v}"` });
      return z.NEVER;
    }
    return ms / 1000;
  });

/** The options as the command line gives them: strings, absent when not given. */
export const loadOptionsSchema = z
  .object({
    endpoint: z
      .string()
      .default('GET:/breaks')
      .transform((v, ctx) => {
        try {
          return parseEndpoint(v);
        } catch (error) {
          // Its message reaches the user through resolveLoadOptions, with the other options' issues.
          if (!(error instanceof UsageError)) throw error;
          ctx.addIssue({ code: 'custom', message: error.message });
          return z.NEVER;
        }
      }),
    connections: integerText('connections', CONNECTIONS.min, CONNECTIONS.max).optional(),
    duration: durationText.optional(),
    amount: integerText('amount', 1, MAX_AMOUNT).optional(),
    rate: integerText('rate', 1, MAX_RATE).optional(),
    ensure: z
      .array(z.string())
      .default([])
      .transform((parts, ctx) =>
        parts.flatMap((part) => {
          try {
            return [parseThreshold(part)];
          } catch (error) {
            if (!(error instanceof UsageError)) throw error;
            ctx.addIssue({ code: 'custom', message: error.message });
            return [];
          }
        }),
      ),
  })
  .refine((o) => o.duration === undefined || o.amount === undefined, { message: '--duration and --amount exclude each other: give one' })
  .transform(
    (o): LoadOptions => ({
      endpoint: o.endpoint,
      connections: o.connections ?? CONNECTIONS.default,
      stop: o.amount !== undefined ? { kind: 'amount', requests: o.amount } : { kind: 'duration', seconds: o.duration ?? DEFAULT_DURATION_SECONDS },
      rate: o.rate ?? null,
      ensure: o.ensure,
    }),
  );

export type LoadOptionsInput = z.input<typeof loadOptionsSchema>;

/**
 * Resolves the command-line options once, at the boundary: defaults filled in, caps enforced.
 * @throws UsageError naming the option, e.g. `--connections must be an integer from 1 to 256`.
 */
export function resolveLoadOptions(input: LoadOptionsInput): LoadOptions {
  const parsed = loadOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new UsageError(`load: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
}

/** How the run is bounded, for people: `10 s`, `200 requests`, with the rate when paced. */
export function describeLoad(options: LoadOptions): string {
  const stop = options.stop.kind === 'duration' ? `for ${options.stop.seconds} s` : `for ${options.stop.requests} requests`;
  const rate = options.rate === null ? 'as fast as it answers' : `at ${options.rate} requests/s`;
  return `${options.endpoint.method} ${options.endpoint.path} over ${options.connections} connection${options.connections === 1 ? '' : 's'} ${stop}, ${rate}`;
}
