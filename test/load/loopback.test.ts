import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/load/loopback.ts';

const hostOf = (url: string) => new URL(url).hostname;

describe('isLoopbackHost', () => {
  it.each(['https://127.0.0.1:8443', 'https://127.255.0.9', 'https://[::1]:8443', 'https://localhost:8443', 'https://LOCALHOST.', 'https://0x7f.1', 'https://[::ffff:127.0.0.1]'])(
    'counts %s as this machine',
    (url) => expect(isLoopbackHost(hostOf(url))).toBe(true),
  );

  it.each(['https://api.example.com', 'https://10.0.0.1', 'https://128.0.0.1', 'https://[::2]', 'https://[::ffff:10.0.0.1]', 'https://localhost.example.com', 'https://127.0.0.1.nip.io', 'https://0.0.0.0'])(
    'counts %s as remote',
    (url) => expect(isLoopbackHost(hostOf(url))).toBe(false),
  );
});
