/**
 * Finds a secret in text by decoding, not by encoding: every run that could be percent-, hex-,
 * HTML-, JSON- or base64-encoded is decoded (base64 at each of its four character offsets, with line
 * breaks removed, and decoded once more; also after percent-decoding), and the secret is looked for
 * in what comes out, in any letter case. Written apart from src/client/redaction.ts and sharing none of its code: a checker
 * that spelled the secret the way the redactor does could not find what the redactor misses.
 */
export function secretFindings(text: string, secret: string): string[] {
  const needle = secret.toLowerCase();
  const found: string[] = [];
  const look = (name: string, view: string) => {
    if (view.toLowerCase().includes(needle)) found.push(name);
  };
  // A report holds a body's text as a JSON string, and the body may itself escape: each level is a view.
  const once = jsonUnescaped(text);
  for (const [level, view] of [['', text], [' (JSON-unescaped)', once], [' (JSON-unescaped twice)', jsonUnescaped(once)]] as const) {
    look(`raw${level}`, view);
    look(`percent-decoded${level}`, percentDecoded(view));
    look(`form-decoded${level}`, percentDecoded(view.replace(/\+/g, ' ')));
    look(`html-unescaped${level}`, htmlUnescaped(view));
    for (const decoded of hexRuns(view)) look(`hex-decoded${level}`, decoded);
    for (const decoded of base64Runs(view)) {
      look(`base64-decoded${level}`, decoded);
      for (const twice of base64Runs(decoded)) look(`base64-decoded twice${level}`, twice);
    }
    // base64 in a URL's query, its + / = percent-encoded.
    for (const decoded of base64Runs(percentDecoded(view))) look(`percent-decoded, then base64-decoded${level}`, decoded);
  }
  return [...new Set(found)];
}

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

function htmlUnescaped(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&([a-z]+);/gi, (whole, name: string) => named[name.toLowerCase()] ?? whole);
}

/** One level of JSON string escapes undone, left to right: an escaped escape becomes an escape, which a second pass undoes. */
function jsonUnescaped(text: string): string {
  const simple: Record<string, string> = { '"': '"', '/': '/', '\\': '\\', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(u[0-9a-fA-F]{4}|["/\\bfnrt])/g, (_, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (simple[e] as string)));
}

/** Each run of hex digits decoded, from its first and its second digit. */
function hexRuns(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/[0-9a-f]{8,}/gi)) {
    for (const shift of [0, 1]) {
      const even = run.slice(shift, shift + Math.floor((run.length - shift) / 2) * 2);
      out.push(Buffer.from(even, 'hex').toString('latin1'), Buffer.from(even, 'hex').toString('utf8'));
    }
  }
  return out;
}

/** Each run of base64 or base64url characters (line breaks removed, real or JSON-escaped) decoded from each of its first four characters. */
function base64Runs(text: string): string[] {
  const joined = text.replace(/\r?\n|\\r|\\n/g, '');
  const out: string[] = [];
  for (const [run] of joined.matchAll(/[A-Za-z0-9+/_-]{6,}={0,2}/g)) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let drop = 0; drop < 4; drop++) {
      const piece = standard.slice(drop);
      out.push(Buffer.from(piece, 'base64').toString('latin1'), Buffer.from(piece, 'base64').toString('utf8'));
    }
  }
  return out;
}
