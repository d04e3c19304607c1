import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTargetAccess } from '../../src/cli/target-access.ts';
import { UsageError } from '../../src/errors.ts';
import { defaultProfile, profileSchema } from '../../src/profile/profile.ts';

const plain = { insecure: false, allowHttp: false };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('resolveTargetAccess', () => {
  it('takes the origin of the base URL, the token from the profile\'s token_env and the CA file', async () => {
    const ca = join(await mkdtemp(join(tmpdir(), 'clockcheck-access-')), 'ca.pem');
    await writeFile(ca, 'PEM');
    vi.stubEnv('MY_TOKEN', 'tok');
    const profile = profileSchema.parse({ token_env: 'MY_TOKEN', tls: { ca, insecure: true } });
    await expect(resolveTargetAccess('https://api.example.com:8443/', profile, plain)).resolves.toEqual({
      origin: 'https://api.example.com:8443',
      token: 'tok',
      caPem: 'PEM',
      caFile: ca,
      insecure: true,
    });
  });

  it('says which variable to set when the token is missing', async () => {
    vi.stubEnv('CLOCKCHECK_TOKEN', '');
    await expect(resolveTargetAccess('https://api.example.com', defaultProfile(), plain)).rejects.toThrow(/set CLOCKCHECK_TOKEN to the target's access token/);
  });

  it('refuses plain HTTP unless allowed, a path, and what is not a URL, as UsageErrors', async () => {
    vi.stubEnv('CLOCKCHECK_TOKEN', 'tok');
    await expect(resolveTargetAccess('http://127.0.0.1:8080', defaultProfile(), plain)).rejects.toThrow(/HTTPS only/);
    await expect(resolveTargetAccess('http://127.0.0.1:8080', defaultProfile(), { ...plain, allowHttp: true })).resolves.toMatchObject({ origin: 'http://127.0.0.1:8080' });
    await expect(resolveTargetAccess('https://api.example.com/api/public', defaultProfile(), plain)).rejects.toThrow(/drop "\/api\/public"/);
    await expect(resolveTargetAccess('api.example.com', defaultProfile(), plain)).rejects.toThrow(UsageError);
  });
});
