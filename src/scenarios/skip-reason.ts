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
 * Why a scenario is skipped whatever the target answers: `--read-only` and a scenario that changes
 * data, a reading the profile does not declare, a profile value it requires, a fixture or the sink
 * its templates read. The plan knows it before anything is sent.
 */
export function profileSkipReason(loaded: LoadedScenario, profile: Profile, run: { readonly readOnly: boolean; readonly sink: boolean }): string | null {
  const { scenario } = loaded;
  if (run.readOnly && scenario.mutates) return 'changes data on the target (--read-only)';
  for (const [key, reading] of Object.entries(scenario.when) as Array<[keyof typeof scenario.when, string | undefined]>) {
    const declared = profile[key];
    if (reading !== undefined && declared !== reading) {
      return `certifies ${key}: ${reading}; the profile declares ${key}: ${declared}${declared === 'either' ? ' (no reading: both pass)' : ''}`;
    }
  }
  for (const path of scenario.requires) {
    if (profileValue(profile, path) === undefined) return `the profile has no ${path}`;
  }
  for (const path of referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair])) {
    if (path.startsWith('sink.') && !run.sink) return 'the profile has no webhook.sink';
    if (path.startsWith('fixtures.') && profileValue(profile, path.replace(/\[\d+\]/g, '')) === undefined) {
      return `the profile has no ${path.replace(/\[\d+\]/g, '')}`;
    }
  }
  return null;
}
