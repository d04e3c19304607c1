import { join } from 'node:path';
import type { DialectName } from '../../src/reference/dialect.ts';
import { loadProfile, type Profile } from '../../src/profile/profile.ts';
import { ROOT } from '../support/cli.ts';

/**
 * The profile of each dialect of the reference server with its standard seed, as a user of that
 * server would write it (test/interop/fixtures-openapi/): the readings `clockcheck openapi --profile`
 * writes a document to, for the lint here and the peer tools in test/interop/.
 */
export const DIALECT_PROFILE_FILES: Readonly<Record<DialectName, string>> = {
  standard: join(ROOT, 'test/interop/fixtures-openapi/standard.profile.yaml'),
  alternative: join(ROOT, 'test/interop/fixtures-openapi/alternative.profile.yaml'),
  laravel: join(ROOT, 'test/interop/fixtures-openapi/laravel.profile.yaml'),
  bare: join(ROOT, 'test/interop/fixtures-openapi/bare.profile.yaml'),
};

/** The dialect's profile, loaded as the command loads it. */
export function dialectProfile(dialect: DialectName): Promise<Profile> {
  return loadProfile(DIALECT_PROFILE_FILES[dialect]);
}
