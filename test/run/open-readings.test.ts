import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import { embeddedProfile, QUICK_RATE_LIMIT } from '../../src/run/embedded-target.ts';
import type { Profile } from '../../src/target/profile.ts';

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
  it('pass the reading a server makes and fail the other one, on either side', async () => {
    expect(await readings(standard, { user_email_format: 'validated', user_edit_required: 'none' })).toEqual({
      'users/email-format-validated': 'passed',
      'users/email-format-not-validated': 'skipped',
      'users/edit-requires-all-four': 'skipped',
      'users/edit-requires-none': 'passed',
    });
    expect(await readings(standard, { user_email_format: 'not-validated', user_edit_required: 'all-four' })).toEqual({
      'users/email-format-validated': 'skipped',
      'users/email-format-not-validated': 'failed',
      'users/edit-requires-all-four': 'failed',
      'users/edit-requires-none': 'skipped',
    });
    expect(await readings(alternative, { user_email_format: 'not-validated', user_edit_required: 'all-four' })).toEqual({
      'users/email-format-validated': 'skipped',
      'users/email-format-not-validated': 'passed',
      'users/edit-requires-all-four': 'passed',
      'users/edit-requires-none': 'skipped',
    });
    expect(await readings(alternative, { user_email_format: 'validated', user_edit_required: 'none' })).toEqual({
      'users/email-format-validated': 'failed',
      'users/email-format-not-validated': 'skipped',
      'users/edit-requires-all-four': 'skipped',
      'users/edit-requires-none': 'failed',
    });
  }, 60_000);

  it('assert neither reading by default (either): their scenarios are skipped, with the reason', async () => {
    const statuses = await readings(standard, { user_email_format: 'either', user_edit_required: 'either' });
    expect(Object.values(statuses)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
  }, 60_000);
});
