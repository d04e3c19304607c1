import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import { certify } from '../../src/run/certify.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import type { RunReport } from '../../src/report/model.ts';

const TOKEN = 'tok-robustness-7f3a9c2e55';
const SUITES = join(import.meta.dirname, '../fixtures/suites/misbehaving');
const profile = parseProfile('rate_limit: { limit: 1000, window: 1s }\ntimeouts: { connect: 1s, headers: 600ms, body: 600ms }\n', 'test-profile.yaml');

/** Certifies `origin` with the misbehaving suite, no generated cases, and the test profile. */
function certifyTarget(origin: string, caPem?: string) {
  return certify({
    origin,
    embedded: false,
    profile,
    token: TOKEN,
    ...(caPem ? { caPem } : {}),
    insecure: false,
    suitesDir: SUITES,
    suiteGlob: '**/*.yaml',
    only: [],
    readOnly: false,
    seed: 7,
    budget: 0,
    progress: null,
    replayBase: `clockcheck run --target ${origin}`,
  });
}

/** A target that answers the preflight like an API but misbehaves on chosen paths. */
function misbehavingServer(tls: TlsIdentity): Server {
  const sockets = new Set<import('node:stream').Duplex>();
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    if (path.endsWith('/hang')) return; // never answers
    if (path.endsWith('/reset')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"items": [');
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    if (path.endsWith('/html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
      return;
    }
    if (path.endsWith('/huge')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent < 50) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => {});
      pump();
      return;
    }
    const authorized = req.headers.authorization === TOKEN;
    res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(authorized ? { meta_data: {}, items: [] } : { message: 'Unauthenticated.' }));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  (server as Server & { destroyAll?: () => void }).destroyAll = () => sockets.forEach((s) => s.destroy());
  return server;
}

describe('a certification run against a misbehaving target', () => {
  let tls: TlsIdentity;
  let server: Server;
  let origin: string;
  let report: RunReport;
  let elapsedMs: number;

  beforeAll(async () => {
    tls = await generateTlsIdentity();
    server = misbehavingServer(tls);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const started = Date.now();
    report = await certifyTarget(origin, tls.caPem);
    elapsedMs = Date.now() - started;
  }, 30_000);

  afterAll(async () => {
    (server as Server & { destroyAll?: () => void }).destroyAll?.();
    await new Promise((resolve) => server.close(resolve));
  });

  const check = (id: string) => report.checks.find((c) => c.id === `misbehaving/${id}`)!;

  it('finishes without throwing, quickly, and exits 1', () => {
    expect(report.exitCode).toBe(1);
    expect(elapsedMs).toBeLessThan(10_000);
  });

  // No answer is no verdict on the rule the step tests: errored with the reason, never passed.
  it('errors the check of an endpoint that never answers, saying it timed out', () => {
    expect(check('hangs').status).toBe('errored');
    expect(check('hangs').reason).toMatch(/HEADERS_TIMEOUT/);
  });

  it('errors the check of an endpoint that resets the connection, saying so', () => {
    expect(check('resets').status).toBe('errored');
    expect(check('resets').reason).toMatch(/CONNECTION_RESET|BODY_TIMEOUT|not JSON/);
  });

  it('fails the check of an endpoint that answers HTML, saying the body is not JSON', () => {
    expect(check('not-json').status).toBe('failed');
    expect(check('not-json').findings[0]!.actual).toMatch(/not JSON/);
  });

  it('errors the check of an endpoint that streams 50 MB without buffering it, saying it is too large', () => {
    const huge = check('huge');
    expect(huge.status).toBe('errored');
    expect(huge.reason).toMatch(/RESPONSE_TOO_LARGE|too large/);
    expect(huge.exchanges[0]!.response?.body.length ?? 0).toBeLessThanOrEqual(8 * 1024);
  });

  it('still passes a healthy endpoint of the same target', () => {
    expect(check('healthy').status).toBe('passed');
  });

  it('never records the token', () => {
    expect(JSON.stringify(report)).not.toContain(TOKEN);
  });
});

describe('a certification run that cannot be made', () => {
  it('ends with exit 2 and one clear reason when nothing listens at the target: the preflight errored, every other check not run, no rule judged', async () => {
    const report = await certifyTarget('https://127.0.0.1:9');
    expect(report.exitCode).toBe(2);
    expect(report.runError).toMatch(/nothing listens at https:\/\/127\.0\.0\.1:9/);
    expect(report.checks.length).toBeGreaterThan(1);
    const [preflight, ...rest] = report.checks;
    expect(preflight).toMatchObject({ status: 'errored', reason: expect.stringContaining('nothing listens') });
    expect(rest.every((c) => c.status === 'not-run' && c.reason?.startsWith('not run: ') && c.reason.includes('nothing listens'))).toBe(true);
    expect(report.summary.rulesCovered).toBe(0);
    expect(report.checks[0]!.exchanges[0]!.error?.code).toBe('CONNECTION_REFUSED');
  });

  it('ends with exit 2 and a TLS hint when the certificate is not trusted', async () => {
    const tls = await generateTlsIdentity();
    const server = misbehavingServer(tls);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await certifyTarget(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(report.exitCode).toBe(2);
      expect(report.runError).toMatch(/TLS error .*--ca FILE/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
