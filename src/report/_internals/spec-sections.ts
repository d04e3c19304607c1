import type { Rule } from '../../contract/rules.ts';

/** The spec's numbered headings (spec/time-tracking-public-api.md), for grouping by section. */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Schedule',
  '2.2': 'User',
  '2.3': 'Timesheet',
  '2.4': 'Break',
  '2.5': 'Pagination block',
  '2.6': 'Webhook subscription',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'Schedules',
  '4.2': 'Users',
  '4.3': 'Timesheets',
  '4.4': 'Breaks',
  '4.5': 'Webhooks',
  '4.6': 'Common query parameters',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** Section key of checks whose rules are not in the report's coverage. */
export const NO_SECTION = '?';

/**
 * The headed section a rule belongs to: the first of its sections (`2.1` for `2.1, 4.1`), or the
 * nearest enclosing heading when that is a numbered item (`5.1` is item 1 of §5).
 */
export function primarySection(rule: Rule): string {
  const first = (rule.section.split(',')[0] ?? '').trim();
  for (let key = first; key !== ''; key = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '') {
    if (SECTION_TITLES[key]) return key;
  }
  return first || NO_SECTION;
}

/** `§2.1 Schedule`. */
export function sectionLabel(section: string): string {
  if (section === NO_SECTION) return 'No spec section';
  const title = SECTION_TITLES[section];
  return title ? `§${section} ${title}` : `§${section}`;
}

/** Orders `1` < `2` < `2.1` < `2.10` < `10`; the unknown section goes last. */
export function compareSections(a: string, b: string): number {
  if (a === NO_SECTION || b === NO_SECTION) return Number(a === NO_SECTION) - Number(b === NO_SECTION);
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

export interface SectionGroup<T> {
  readonly section: string;
  readonly label: string;
  readonly items: readonly T[];
}

/** Groups items by section, sections in spec order, items in their given order. */
export function groupBySection<T>(items: readonly T[], sectionOf: (item: T) => string): SectionGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const section = sectionOf(item);
    const group = groups.get(section);
    if (group) group.push(item);
    else groups.set(section, [item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([section, grouped]) => ({ section, label: sectionLabel(section), items: grouped }));
}
