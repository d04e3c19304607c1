import { describe, expect, it } from 'vitest';
import { ClockcheckError } from '../../src/errors.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { REDACTED, Redactor } from '../../src/client/redaction.ts';

const TOKEN = 'tok/en+Secret=42 ü"x';
const redactor = new Redactor(TOKEN);

describe('Redactor.text', () => {
  it.each([
    ['raw', TOKEN],
    ['URL-encoded', encodeURIComponent(TOKEN)],
    ['URL-encoded in lower-case hex', encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['form-encoded', new URLSearchParams({ t: TOKEN }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(TOKEN).slice(1, -1)],
    ['JSON-escaped the PHP way', '"tok\\/en+Secret=42 \\u00FC\\"x"'.slice(1, -1)],
    ['base64', Buffer.from(TOKEN).toString('base64')],
    ['base64url', Buffer.from(TOKEN).toString('base64url')],
  ])('replaces the token written %s', (_, form) => {
    const text = `before ${form} middle ${form} after`;
    expect(redactor.text(text)).toBe(`before ${REDACTED} middle ${REDACTED} after`);
    expect(redactor.reveals(text)).toBe(true);
  });

  it('leaves text without the token as it is', () => {
    expect(redactor.text('nothing to see: tok/en+Secret')).toBe('nothing to see: tok/en+Secret');
    expect(redactor.reveals('nothing')).toBe(false);
  });

  it('redacts the other secrets it is given (a webhook secret) in every form too, and ignores empty ones', () => {
    const both = new Redactor(TOKEN, ['whsec/1+2', '']);
    const text = `{"url":"http://127.0.0.1/","secret":"whsec\\/1+2"} ${encodeURIComponent('whsec/1+2')} ${TOKEN}`;
    expect(both.text(text)).toBe(`{"url":"http://127.0.0.1/","secret":"${REDACTED}"} ${REDACTED} ${REDACTED}`);
    expect(both.text('plain text')).toBe('plain text');
  });

  it('redacts a token shorter than 8 characters', () => {
    const short = new Redactor('ab1');
    expect(short.text('x=ab1&y=ab1')).toBe(`x=${REDACTED}&y=${REDACTED}`);
    expect(short.text(`Basic ${Buffer.from('ab1').toString('base64')}`)).toBe(`Basic ${REDACTED}`);
  });

  it.each([
    ['upper-cased', TOKEN.toUpperCase()],
    ['percent-encoded byte by byte', [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
    ['hex', Buffer.from(TOKEN).toString('hex')],
    ['hex, upper-cased', Buffer.from(TOKEN).toString('hex').toUpperCase()],
    ['as decimal HTML references', [...TOKEN].map((c) => `&#${c.codePointAt(0)};`).join('')],
    ['as hex HTML references', [...TOKEN].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
    ['with its HTML specials escaped', TOKEN.replace(/"/g, '&quot;')],
    ['as \\u escapes, every character', TOKEN.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ])('replaces the token written %s', (_, form) => {
    expect(redactor.text(`<${form}>`)).toBe(`<${REDACTED}>`);
  });

  it.each([0, 1, 2, 3, 4, 5])('finds the token in base64 and base64url after a prefix of %i bytes, line-wrapped or encoded twice', (prefix) => {
    const text = `${'P'.repeat(prefix)}${TOKEN} trailing`;
    for (const encoded of [
      Buffer.from(text).toString('base64'),
      Buffer.from(text).toString('base64url'),
      Buffer.from(text).toString('base64').replace(/.{5}/g, '$&\r\n'),
      Buffer.from(Buffer.from(TOKEN).toString('base64')).toString('base64'),
    ]) {
      expect(redactor.reveals(encoded), encoded).toBe(true);
      const decoded = Buffer.from(redactor.text(encoded).replace(/\r\n/g, '').replace(/\[REDACTED\]/g, ''), 'base64').toString('latin1');
      expect(decoded).not.toContain(TOKEN.slice(0, 8));
    }
  });

  it('does not garble every word for a one-character token: a short token is matched only where no letter or digit touches it', () => {
    const short = new Redactor('x');
    expect(short.text('https://api.example.com/x?t=x')).toBe(`https://api.example.com/${REDACTED}?t=${REDACTED}`);
  });

  it('refuses an empty token as misuse', () => {
    expect(() => new Redactor('')).toThrow(ClockcheckError);
  });
});

describe('Redactor.headers', () => {
  it('hides an Authorization header that holds the token, whatever else it holds', () => {
    expect(redactor.headers({ authorization: TOKEN })).toEqual({ authorization: REDACTED });
    expect(redactor.headers({ Authorization: `Bearer ${TOKEN}` })).toEqual({ Authorization: `Bearer ${REDACTED}` });
    expect(redactor.headers({ authorization: `Basic ${Buffer.from(TOKEN).toString('base64')}` })).toEqual({ authorization: REDACTED });
  });

  it('keeps a deliberately wrong token so the report can show what was sent', () => {
    expect(redactor.headers({ authorization: 'wrong-token' })).toEqual({ authorization: 'wrong-token' });
  });

  it('hides a truncated token (half of it or more) in Authorization', () => {
    expect(redactor.headers({ authorization: TOKEN.slice(0, -1) })).toEqual({ authorization: REDACTED });
  });

  it('redacts the token in a header name (a target that echoes it there), keeping both values of names that become one', () => {
    const echoed = new Redactor('abcdef0123456789');
    expect(echoed.headers({ 'x-echo-abcdef0123456789': '1', 'x-echo-ABCDEF0123456789': '2', 'x-ok': 'v' })).toEqual({ [`x-echo-${REDACTED}`]: '1, 2', 'x-ok': 'v' });
  });

  it('redacts the token inside other header values', () => {
    expect(redactor.headers({ location: `https://x.test/?t=${encodeURIComponent(TOKEN)}`, 'x-echo': TOKEN })).toEqual({
      location: `https://x.test/?t=${REDACTED}`,
      'x-echo': REDACTED,
    });
  });
});

describe('Redactor.message and Redactor.json', () => {
  it('redacts error messages and their causes', () => {
    const error = new Error(`connect failed for ${TOKEN}`, { cause: new Error(`cause ${encodeURIComponent(TOKEN)}`) });
    expect(redactor.message(error)).toBe(`connect failed for ${REDACTED}: cause ${REDACTED}`);
  });

  it('redacts every string of a JSON value, keys included, and shares unchanged parts', () => {
    const clean = { a: [1, 'x'] };
    const value = { clean, echo: [`t ${TOKEN}`], [TOKEN]: true };
    const redacted = redactor.json(value) as Record<string, unknown>;
    expect(redacted).toEqual({ clean, echo: [`t ${REDACTED}`], [REDACTED]: true });
    expect(redacted.clean).toBe(clean);
  });
});

describe('Redactor.exchange', () => {
  it('redacts the URL, headers, bodies, parsed JSON and error of an exchange', () => {
    const escaped = JSON.stringify({ echo: TOKEN }).replace('ü', '\\u00fc');
    const exchange: Exchange = {
      id: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      sentAtMs: 0,
      durationMs: 1,
      request: {
        method: 'POST',
        url: `https://x.test/api/public/users?token=${encodeURIComponent(TOKEN)}`,
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ password: TOKEN }),
      },
      response: { status: 200, headers: { 'x-token': TOKEN }, body: escaped, bodyBytes: 10, bodyTruncated: false, json: JSON.parse(escaped) },
      error: { code: 'OTHER', message: `failed with ${TOKEN}` },
    };
    const redacted = redactor.exchange(exchange);
    const text = JSON.stringify(redacted);
    for (const form of [TOKEN, encodeURIComponent(TOKEN), JSON.stringify(TOKEN).slice(1, -1)]) expect(text).not.toContain(form);
    expect(redacted.request.headers).toEqual({ authorization: REDACTED, 'content-type': 'application/json' });
    expect(redacted.response?.json).toEqual({ echo: REDACTED });
    expect(redacted.error).toEqual({ code: 'OTHER', message: `failed with ${REDACTED}` });
  });

  it('finds a token spelled with JSON escapes the body text does not show plainly', () => {
    const r = new Redactor('abc123');
    const body = '{"echo":"\\u0061bc123"}';
    const exchange: Exchange = {
      id: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      sentAtMs: 0,
      durationMs: 1,
      request: { method: 'GET', url: 'https://x.test/', headers: {} },
      response: { status: 200, headers: {}, body, bodyBytes: body.length, bodyTruncated: false, json: JSON.parse(body) },
    };
    expect(JSON.stringify(r.exchange(exchange))).not.toContain('abc123');
  });
});
