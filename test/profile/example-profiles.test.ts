import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/profile/profile.ts';

const DIR = join(import.meta.dirname, '../../fixtures/profiles');

describe('the example profiles shipped in fixtures/profiles', () => {
  it.each(readdirSync(DIR).filter((f) => f.endsWith('.yaml')))('%s is a valid profile', async (file) => {
    const profile = await loadProfile(join(DIR, file));
    expect(profile.rate_limit.limit).toBe(60);
    expect(profile.fixtures.active_user_ids?.length).toBeGreaterThan(0);
  });
});
