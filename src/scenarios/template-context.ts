/**
 * What `{{ expr }}` templates read (src/scenarios/template.ts): the profile's fixtures, the
 * scenario's vars, the profile, the company timezone, the run's dates, fresh unique values and the
 * run's webhook sink.
 */
export interface TemplateContext {
  readonly fixtures: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly profile: Readonly<Record<string, unknown>>;
  readonly companyTimezone: string;
  readonly dates: RunDates;
  /** Fresh values on every call: e-mail, letters-only name, token. */
  readonly unique: () => { email: string; name: string; token: string };
  /** The run's webhook sink (profile `webhook.sink`): the URL the target delivers to, and the subscription's secret. */
  readonly sink?: { readonly url: string; readonly secret: string | null };
}

/** The run's base dates, derived from the seed so reruns repeat and different runs spread out. */
export interface RunDates {
  readonly year: number;
  readonly day: number;
}

export function runDates(seed: number): RunDates {
  return { year: 2015 + (seed % 10), day: 1 + (Math.floor(seed / 10) % 18) };
}

/**
 * The largest DAY a date template may add to the base day: the base day is at most 18, and
 * January and July have 31 days.
 */
export const MAX_TEMPLATE_DAY = 13;
