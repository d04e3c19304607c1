import type { Profile } from '../profile/profile.ts';
import { referencedPaths } from '../input/template-syntax.ts';
import type { LoadedScenario } from './loader.ts';

/** The profile value a `requires:` entry or a `fixtures.` template names (`fixtures.role_user_ids.admin`), or undefined. */
export function profileValue(profile: Profile, path: string): unknown {
  let value: unknown = profile;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The profile values the API cannot make, with what to do: a scenario that needs one the profile
 * lacks is skipped with this sentence (a user of a role or an active user the run can find or
 * create: src/needs/fates.ts).
 */
const UNMEETABLE: Readonly<Record<string, string>> = {
  'fixtures.inactive_user_id': 'needs an inactive user (fixtures.inactive_user_id): the API cannot deactivate a user (§2.2 has no active field) and the target\'s user list shows none; deactivate one in the web app and name it in the profile',
  'fixtures.job_id': 'needs a job (fixtures.job_id): the API neither creates nor lists jobs; name one from the web app in the profile',
  'fixtures.task_id': 'needs a task (fixtures.task_id): the API neither creates nor lists tasks; name one from the web app in the profile',
  'fixtures.break_rule_id': 'needs a break rule (fixtures.break_rule_id): the API neither creates nor lists break rules, and no break on the target names one; name one from the web app in the profile',
  'versioned_prefix': 'needs versioned_prefix: the spec names no version label (§9); declare the prefix the target serves, if any',
  'webhook.subscribe_path': 'needs webhook.subscribe_path: the spec shows no subscribe operation (§4.5); declare the target\'s subscribe extension, if it has one',
  'webhook.read_path': 'needs webhook.read_path: the spec shows no read of the subscription (§4.5); declare the target\'s, if it has one',
  'webhook.sink': 'needs webhook.sink: notifications can be observed only at a receiver the run starts (§6)',
  'fixtures.active_user_ids': 'needs an active user (fixtures.active_user_ids): the target\'s user list shows none; name one in the profile (the run creates one where a check needs it and it may write)',
};

/** Why the profile's lack of `path` skips a check: the need named, and what to do about it. */
export function lacking(path: string): string {
  return UNMEETABLE[path] ?? `needs ${path}, which the profile does not declare`;
}

/** Profile values a run finds on the target or creates through the API before the checks (src/needs/fates.ts): no reason to skip in a plan. */
const MEETABLE = /^fixtures\.(active_user_ids|role_user_ids\.(admin|manager|employee))$/;

/**
 * Why a scenario is skipped whatever the target answers: `--read-only` and a scenario that changes
 * data, a reading the profile does not declare, a profile value it requires, a fixture or the sink
 * its templates read. The plan knows it before anything is sent; with `planning`, the fixtures a
 * run can find or create (a user of a role, an active user) do not skip it.
 */
export function profileSkipReason(loaded: LoadedScenario, profile: Profile, run: { readonly readOnly: boolean; readonly sink: boolean; readonly planning?: boolean }): string | null {
  const { scenario } = loaded;
  if (run.readOnly && scenario.mutates) return 'changes data on the target (--read-only)';
  for (const [key, reading] of Object.entries(scenario.when) as Array<[keyof typeof scenario.when, string | undefined]>) {
    const declared = profile[key];
    if (reading !== undefined && declared !== reading) {
      return `certifies ${key}: ${reading}; the profile declares ${key}: ${declared}${declared === 'either' ? ' (no reading: both pass)' : ''}`;
    }
  }
  const missing = (path: string) => profileValue(profile, path) === undefined && !(run.planning && MEETABLE.test(path));
  for (const path of scenario.requires) if (missing(path)) return lacking(path);
  for (const path of referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair])) {
    if (path.startsWith('sink.') && !run.sink) return lacking('webhook.sink');
    const fixture = path.replace(/\[\d+\]/g, '');
    if (fixture.startsWith('fixtures.') && missing(fixture)) return lacking(fixture);
  }
  return null;
}
