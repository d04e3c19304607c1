import { z } from 'zod';

/**
 * The JSON report `artillery run --output FILE` writes (Artillery 2.x): `aggregate`, the whole run,
 * and `intermediate`, one entry per reporting period (10 s by default). Only what `load
 * --from-artillery` reads is described; every other field (the serialized `histograms` among them) is
 * let through and dropped, so a later Artillery that adds fields still reads.
 */

/**
 * One of Artillery's summaries (a histogram's figures), ms for a response time. Artillery writes null
 * for a figure it could not compute (a mean of NaN, when some calls had no time).
 */
export const artillerySummarySchema = z.object({
  count: z.number().nonnegative(),
  min: z.number().nullable().optional(),
  max: z.number().nullable().optional(),
  mean: z.number().nullable().optional(),
  p50: z.number().nullable().optional(),
  median: z.number().nullable().optional(),
  p75: z.number().nullable().optional(),
  p90: z.number().nullable().optional(),
  p95: z.number().nullable().optional(),
  p99: z.number().nullable().optional(),
  p999: z.number().nullable().optional(),
});

export type ArtillerySummary = z.infer<typeof artillerySummarySchema>;

/** One period of metrics (or the aggregate): counters, rates, summaries, and when its first and last metric came, in ms since the epoch. */
export const artilleryPeriodSchema = z.object({
  counters: z.record(z.string(), z.number().nonnegative()).default({}),
  rates: z.record(z.string(), z.number().nullable()).default({}),
  summaries: z.record(z.string(), artillerySummarySchema).default({}),
  firstMetricAt: z.number(),
  lastMetricAt: z.number(),
});

export type ArtilleryPeriod = z.infer<typeof artilleryPeriodSchema>;

/** The report of one `artillery run --output FILE`. */
export const artilleryReportSchema = z
  .object({
    aggregate: artilleryPeriodSchema,
    intermediate: z.array(artilleryPeriodSchema).default([]),
  })
  .refine((report) => report.aggregate.lastMetricAt >= report.aggregate.firstMetricAt, {
    message: 'lastMetricAt is before firstMetricAt',
    path: ['aggregate', 'lastMetricAt'],
  })
  .refine((report) => report.aggregate.counters['http.requests'] !== undefined, {
    message: 'no http.requests counter: the run made no HTTP call (an Artillery report of the http engine is expected)',
    path: ['aggregate', 'counters'],
  });

export type ArtilleryReport = z.infer<typeof artilleryReportSchema>;

/** A counter of the run, 0 when Artillery did not emit it (it writes no counter that never counted). */
export function counter(period: ArtilleryPeriod, name: string): number {
  return period.counters[name] ?? 0;
}

/** The sum of the counters under `prefix` (`errors.` → every error code), by the rest of their name. */
export function countersUnder(period: ArtilleryPeriod, prefix: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const [name, value] of Object.entries(period.counters)) {
    if (name.startsWith(prefix) && value > 0) found.set(name.slice(prefix.length), value);
  }
  return found;
}
