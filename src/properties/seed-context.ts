import { DateTime } from 'luxon';
import { formatOffsetDateTime } from '../contract/formats/index.ts';
import type { GeneratorContext } from './family.ts';

/**
 * A generator context from the reference server's seed data (docs/reference-server.md, "Seed data"): active users
 * 1–3, job, task and break rule 1, and timesheet 1 (2026-10-01, 09:00 to 17:00 company time), so
 * payloads printed by `clockcheck fuzz` are judged by `clockcheck serve` as their labels say.
 * `clockcheck fuzz --profile` uses profileContext (profile-context.ts) instead: the user's server.
 */
export function seedContext(companyTimezone: string, uniqueTag: string): GeneratorContext {
  const day = DateTime.fromObject({ year: 2026, month: 10, day: 1, hour: 9 }, { zone: companyTimezone });
  return {
    companyTimezone,
    activeUserIds: [1, 2, 3],
    jobId: 1,
    taskId: 1,
    breakRuleId: 1,
    timesheet: { id: 1, start: formatOffsetDateTime(day), end: formatOffsetDateTime(day.set({ hour: 17 })) },
    uniqueTag,
  };
}
