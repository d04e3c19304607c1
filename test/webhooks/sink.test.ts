import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { signDelivery } from '../support/webhooks.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { NotificationForm, PUBLISHED_FORM, signatureHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature, type SignatureScheme } from '../../src/contract/webhook-notification.ts';
import { PROBE_HEADER, startSink, type Sink } from '../../src/webhooks/sink.ts';
import { FakeClock } from '../support/fake-clock.ts';

const SECRET = 'whsec-test-0123456789';
let sink: Sink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST') {
  const response = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body }) });
  return { status: response.status, text: await response.text() };
}

function signed(body: string, nowSeconds = Math.floor(Date.now() / 1000), secret = SECRET): Record<string, string> {
  const timestamp = String(nowSeconds);
  return { 'content-type': 'application/json', [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signDelivery(secret, timestamp, body) };
}

const NOTIFICATION = JSON.stringify({ payload: { event: 'users', data: { id: 12, operation: 'users_created', last_updated_at: 1_700_000_000 } } });

/** verifySignature in the published scheme, for a delivery with these two header values. */
function verifyPublished(secret: string, delivery: { timestamp: string | undefined; signature: string | undefined; body: string }, nowMs: number) {
  const headers: Record<string, string | undefined> = { [TIMESTAMP_HEADER]: delivery.timestamp, [SIGNATURE_HEADER]: delivery.signature };
  return verifySignature(PUBLISHED_FORM.signature!, secret, { header: (name) => headers[name], body: delivery.body }, nowMs);
}

describe('webhook signatures', () => {
  it('verify the HMAC-SHA256 of timestamp + body, within the tolerance, and nothing else', () => {
    const now = 1_700_000_000_000;
    const timestamp = String(now / 1000);
    const signature = signDelivery(SECRET, timestamp, NOTIFICATION);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyPublished(SECRET, { timestamp, signature, body: NOTIFICATION }, now)).toEqual({ ok: true });
    expect(verifyPublished(SECRET, { timestamp, signature: signature.toUpperCase(), body: NOTIFICATION }, now)).toEqual({ ok: true });
    expect(verifyPublished(SECRET, { timestamp, signature, body: `${NOTIFICATION} ` }, now).ok).toBe(false);
    expect(verifyPublished('another', { timestamp, signature, body: NOTIFICATION }, now).ok).toBe(false);
    expect(verifyPublished(SECRET, { timestamp, signature, body: NOTIFICATION }, now + 301_000)).toMatchObject({ ok: false, why: expect.stringContaining('tolerance') });
    expect(verifyPublished(SECRET, { timestamp: undefined, signature, body: NOTIFICATION }, now)).toMatchObject({ ok: false, why: expect.stringContaining(TIMESTAMP_HEADER) });
    expect(verifyPublished(SECRET, { timestamp, signature: 'zz', body: NOTIFICATION }, now).ok).toBe(false);
    expect(verifyPublished(SECRET, { timestamp, signature: signature.slice(0, 62), body: NOTIFICATION }, now).ok).toBe(false);
    // The body is signed as sent: replacement patterns and placeholders in it are text.
    const tricky = JSON.stringify({ payload: { event: "$& $' {timestamp} {body}", data: { id: 1, operation: 'users_created', last_updated_at: false } } });
    expect(verifyPublished(SECRET, { timestamp, signature: createHmac('sha256', SECRET).update(timestamp + tricky).digest('hex'), body: tricky }, now)).toEqual({ ok: true });
    // A timestamp in milliseconds is read as such.
    const ms = String(now);
    expect(verifyPublished(SECRET, { timestamp: ms, signature: signDelivery(SECRET, ms, NOTIFICATION), body: NOTIFICATION }, now)).toEqual({ ok: true });
  });

  const SCHEMES: [string, unknown, (secret: string, timestamp: string, body: string) => Record<string, string>][] = [
    // GitHub: X-Hub-Signature-256: sha256=<hex HMAC of the body>
    ['sha256= prefix over the body alone', { header: 'X-Hub-Signature-256', timestamp_header: null, signed: '{body}', prefix: 'sha256=' }, (secret, _t, body) => ({ 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` })],
    // Slack: X-Slack-Signature: v0=<hex HMAC of "v0:" + timestamp + ":" + body>
    ['a versioned content with the timestamp', { header: 'x-slack-signature', timestamp_header: 'x-slack-request-timestamp', signed: 'v0:{timestamp}:{body}', prefix: 'v0=' }, (secret, t, body) => ({ 'x-slack-request-timestamp': t, 'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${t}:${body}`).digest('hex')}` })],
    // Shopify: X-Shopify-Hmac-Sha256: <base64 HMAC of the body>
    ['base64 over the body alone', { header: 'x-shopify-hmac-sha256', timestamp_header: null, signed: '{body}', encoding: 'base64' }, (secret, _t, body) => ({ 'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64') })],
    ['HMAC-SHA512', { algorithm: 'sha512' }, (secret, t, body) => ({ [TIMESTAMP_HEADER]: t, [SIGNATURE_HEADER]: createHmac('sha512', secret).update(t + body).digest('hex') })],
  ];

  it.each(SCHEMES)('verify a declared scheme (%s) as its senders sign it, and sign as they do', (_name, declared, sign) => {
    const scheme = NotificationForm.parse({ signature: declared }).signature!;
    const now = 1_700_000_000_000;
    const timestamp = String(now / 1000);
    const headers = sign(SECRET, timestamp, NOTIFICATION);
    const check = (h: Record<string, string>, body = NOTIFICATION) => verifySignature(scheme, SECRET, { header: (name) => h[name], body }, now);
    expect(check(headers)).toEqual({ ok: true });
    expect(signatureHeaders(scheme, SECRET, now / 1000, NOTIFICATION)).toEqual(headers);
    expect(check(headers, `${NOTIFICATION}\n`)).toMatchObject({ ok: false, why: expect.stringMatching(/does not match the HMAC-SHA(256|512) of /) });
    expect(check(sign('another', timestamp, NOTIFICATION)).ok).toBe(false);
    expect(check({})).toMatchObject({ ok: false, why: expect.stringMatching(/^no \S+ header$/) });
  });

  it('describe what a failed signature should have covered', () => {
    const scheme: SignatureScheme = NotificationForm.parse({ signature: { header: 'x-slack-signature', timestamp_header: 'x-slack-request-timestamp', signed: 'v0:{timestamp}:{body}', prefix: 'v0=' } }).signature!;
    const check = verifySignature(scheme, SECRET, { header: (name) => ({ 'x-slack-request-timestamp': '1700000000', 'x-slack-signature': 'v0=00' })[name], body: '{}' }, 1_700_000_000_000);
    expect(check).toEqual({ ok: false, why: 'x-slack-signature does not match the HMAC-SHA256 of "v0:" + x-slack-request-timestamp + ":" + body' });
  });
});

describe('the notification form a profile declares', () => {
  it('defaults to the published form, and refuses a form that cannot tell changes apart or names what it does not send', () => {
    expect(NotificationForm.parse({})).toEqual(PUBLISHED_FORM);
    expect(PUBLISHED_FORM).toMatchObject({ id: '/payload/data/id', operation: { at: '/payload/data/operation', value: '{event}_{change}' }, signature: { header: SIGNATURE_HEADER, timestamp_header: TIMESTAMP_HEADER } });
    const issues = (value: unknown) => { const parsed = NotificationForm.safeParse(value); return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`); };
    expect(issues({ operation: { value: '{event}.done' } })).toEqual(['operation.value: must hold {change}']);
    expect(issues({ operation: { value: '{evnt}.{change}' } })).toEqual(['operation.value: placeholders allowed: {event}, {change}']);
    expect(issues({ signature: { timestamp_header: null } })).toEqual(['signature.signed: signed uses {timestamp}: name its timestamp_header']);
    expect(issues({ signature: { signed: '{timestamp}' } })).toEqual(['signature.signed: must sign {body}']);
    expect(issues({ id: 'data.id' })).toEqual(['id: expected a JSON pointer, e.g. /payload/data/id']);
    expect(issues({ signature: null, event: null })).toEqual([]);
  });
});

describe('the sink', () => {
  it('keeps a signed notification, verified and read as the published shape, and answers the chosen status', async () => {
    sink = await startSink({ secret: SECRET, status: 202 });
    expect(await post(sink.url, NOTIFICATION, signed(NOTIFICATION))).toMatchObject({ status: 202 });
    const [delivery] = sink.deliveries;
    expect(delivery).toMatchObject({ id: 1, signature: 'verified', payload: { ok: true }, names: { event: 'users', id: '12', operation: 'users_created' }, status: 202 });
  });

  it('accepts last_updated_at: false, as real deliveries carry it, and names what a wrong payload lacks', async () => {
    sink = await startSink({ secret: SECRET });
    const falseTime = JSON.stringify({ payload: { event: 'users', data: { id: 3, operation: 'users_updated', last_updated_at: false } } });
    const noId = JSON.stringify({ payload: { event: 'users', data: { operation: 'users_updated', last_updated_at: 1 } } });
    await post(sink.url, falseTime, signed(falseTime));
    await post(sink.url, noId, signed(noId));
    expect(sink.deliveries[0]!.payload.ok).toBe(true);
    expect(sink.deliveries[1]!.payload).toMatchObject({ ok: false, why: expect.stringContaining('payload.data.id') });
  });

  it('says why a signature fails: unsigned, signed with another secret, or too old', async () => {
    sink = await startSink({ secret: SECRET });
    await post(sink.url, NOTIFICATION);
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION, undefined, 'not-the-secret'));
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION, Math.floor(Date.now() / 1000) - 3600));
    expect(sink.deliveries.map((d) => (typeof d.signature === 'string' ? d.signature : d.signature.failed))).toEqual([
      `no ${TIMESTAMP_HEADER} header`,
      'x-webhook-signature does not match the HMAC-SHA256 of x-webhook-timestamp + body',
      expect.stringContaining('tolerance'),
    ]);
  });

  it('refuses what is not a POST of JSON within the size limit, keeps nothing of it, and goes on', async () => {
    sink = await startSink({ maxBodyBytes: 1024 });
    expect((await post(sink.url, '', {}, 'GET')).status).toBe(405);
    expect((await post(sink.url, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await post(sink.url, '{"broken": ', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await post(sink.url, JSON.stringify({ big: 'x'.repeat(4096) }))).status).toBe(413);
    // A body that announces no length and keeps coming is cut at the limit, not buffered.
    const chunked = await new Promise<string>((resolve) => {
      const { port } = new URL(sink!.url);
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
        for (let i = 0; i < 8; i++) socket.write(`400\r\n${'y'.repeat(1024)}\r\n`);
      });
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => resolve(answer));
    });
    expect(chunked).toMatch(/^HTTP\/1\.1 413/);
    expect(sink.deliveries).toEqual([]);
    expect(sink.refused).toEqual({ 'not a POST': 1, 'not application/json': 1, 'not JSON': 1, 'body too large': 2 });
    expect((await post(sink.url, NOTIFICATION)).status).toBe(200);
    expect(sink.deliveries).toHaveLength(1);
  });

  it('keeps a reachability probe apart from the deliveries, and numbers deliveries from lastId', async () => {
    sink = await startSink({ secret: SECRET });
    expect(sink.lastId).toBe(0);
    const waiting = sink.waitForProbe('n1', 2_000);
    expect(await post(sink.url, '{}', { 'content-type': 'application/json', [PROBE_HEADER]: 'n1' })).toMatchObject({ status: 200 });
    expect(await waiting).toBe(true);
    expect(await sink.waitForProbe('n2', 50)).toBe(false);
    expect(sink.deliveries).toHaveLength(0);
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION));
    expect(sink.lastId).toBe(1);
  });

  it('holds at most maxHeld deliveries, dropping the oldest, and waitFor finds a later one or gives up in time', async () => {
    sink = await startSink({ maxHeld: 3 });
    for (let i = 0; i < 5; i++) await post(sink.url, JSON.stringify({ n: i }));
    expect(sink.deliveries.map((d) => d.id)).toEqual([3, 4, 5]);
    expect(sink.dropped).toBe(2);
    const started = Date.now();
    expect(await sink.waitFor(() => true, 200, 5)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
    const later = sink.waitFor((d) => d.body.includes('"n":9'), 2000, 5);
    await post(sink.url, JSON.stringify({ n: 9 }));
    expect((await later)?.id).toBe(6);
    // Closing the sink ends a wait at once, with nothing.
    const pending = sink.waitFor(() => false, 60_000);
    const closing = Date.now();
    await sink.close();
    expect(await pending).toBeNull();
    expect(Date.now() - closing).toBeLessThan(1000);
    sink = undefined;
  });
});

describe('the sink on a controlled clock', () => {
  it('ends a wait exactly at its timeout on the clock, and finds what comes before it', async () => {
    const clock = new FakeClock(1_800_000_000_000);
    sink = await startSink({ clock });
    let ended = false;
    const waiting = sink.waitFor(() => false, 60_000).then((found) => ((ended = true), found));
    await clock.advance(59_999);
    expect(ended).toBe(false);
    await clock.advance(1);
    expect(await waiting).toBeNull();
    expect(clock.pending).toBe(0);
    const probe = sink.waitForProbe('p1', 10_000);
    await clock.advance(9_999);
    expect(await post(sink.url, '{}', { 'content-type': 'application/json', [PROBE_HEADER]: 'p1' })).toMatchObject({ status: 200 });
    expect(await probe).toBe(true);
    // A wait that found what it waited for leaves no sleep behind.
    expect(clock.pending).toBe(0);
  });

  it("judges a signature's timestamp against the clock: 300 s old is within the tolerance, 301 s is not", async () => {
    const clock = new FakeClock(1_800_000_000_000);
    sink = await startSink({ secret: SECRET, clock });
    const nowSeconds = clock.now() / 1000;
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION, nowSeconds - 300));
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION, nowSeconds - 301));
    await post(sink.url, NOTIFICATION, signed(NOTIFICATION, nowSeconds + 300));
    expect(sink.deliveries.map((d) => (typeof d.signature === 'string' ? d.signature : 'failed'))).toEqual(['verified', 'failed', 'verified']);
  });
});
