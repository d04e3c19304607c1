import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/embedded/embedded-profile.ts';
import type { Profile } from '../../src/profile/profile.ts';

let standard: ReferenceServer;
let alternative: ReferenceServer;
beforeAll(async () => {
  [standard, alternative] = await Promise.all([
    startReferenceServer({ rateLimit: QUICK_RATE_LIMIT }),
    startReferenceServer({ rateLimit: QUICK_RATE_LIMIT, dialect: 'alternative' }),
  ]);
});
afterAll(async () => {
  await Promise.all([standard.close(), alternative.close()]);
});

/** Certifies the four reading scenarios against `server` with the readings `declared`. */
async function readings(server: ReferenceServer, declared: Pick<Profile, 'user_email_format' | 'user_edit_required'>) {
  const profile = { ...withoutBursts(embeddedProfile(server)), ...declared };
  const report = await certifyServer(server, profile, { suiteGlob: 'users.yaml', only: ['USR-EMAIL-FORMAT', 'USR-EDIT-REQUIRED'], seed: 4 });
  return Object.fromEntries(report.checks.filter((c) => c.id.startsWith('users/')).map((c) => [c.id, c.status]));
}

describe('the open readings USR-EMAIL-FORMAT and USR-EDIT-REQUIRED', () => {
  // Each server makes one reading (standard: validated, none; alternative: not-validated, all-four).
  const VALIDATED_NONE = { user_email_format: 'validated', user_edit_required: 'none' } as const;
  const NOT_VALIDATED_ALL_FOUR = { user_email_format: 'not-validated', user_edit_required: 'all-four' } as const;
  it.each([
    ['standard', 'its own reading', 'passed', () => standard, VALIDATED_NONE],
    ['standard', 'the other reading', 'failed', () => standard, NOT_VALIDATED_ALL_FOUR],
    ['alternative', 'its own reading', 'passed', () => alternative, NOT_VALIDATED_ALL_FOUR],
    ['alternative', 'the other reading', 'failed', () => alternative, VALIDATED_NONE],
  ] as const)('the %s server, declared with %s: the declared reading\'s scenarios are %s, the other reading\'s skipped', async (_name, _which, verdict, server, declared) => {
    const statuses = await readings(server(), declared);
    const validated = declared.user_email_format === 'validated';
    expect(statuses).toEqual({
      'users/email-format-validated': validated ? verdict : 'skipped',
      'users/email-format-not-validated': validated ? 'skipped' : verdict,
      'users/edit-requires-all-four': validated ? 'skipped' : verdict,
      'users/edit-requires-none': validated ? verdict : 'skipped',
    });
  }, 60_000);

  it('assert neither reading by default (either): their scenarios are skipped, with the reason', async () => {
    const statuses = await readings(standard, { user_email_format: 'either', user_edit_required: 'either' });
    expect(Object.values(statuses)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
  }, 60_000);
});
