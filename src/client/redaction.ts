import { ClockcheckError } from '../errors.ts';
import type { Exchange, ExchangeResponse, TokenSighting } from './exchange.ts';
import { errorMessage } from './_internals/error-message.ts';
import { secretForms, secretLiterals, secretPlainForms } from './_internals/secret-forms.ts';

/** A secret shorter than this is redacted only where no letter or digit touches it. */
const MIN_FREE_LENGTH = 8;

/**
 * A block of base64 or base64url lines (MIME wraps base64 at 76 characters), the line breaks real or
 * JSON-escaped (`\r\n` in a body's text), a slash maybe JSON-escaped (PHP writes `\/`). It starts
 * where a run of base64 characters starts, so a long run is tried once.
 */
const WRAPPED_BASE64 = /(?<![A-Za-z0-9+/_-])(?:[A-Za-z0-9+/_-]|\\{1,7}\/)+={0,2}(?:(?:\r?\n|\\r\\n|\\n)(?:[A-Za-z0-9+/_-]|\\{1,7}\/)+={0,2})+/g;
const LINE_BREAKS = /\r?\n|\\r\\n|\\n/g;

function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\\n');
}

/** What every secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** A token the Redactor hides, with the name a finding calls it by (never its value). */
export interface NamedToken {
  readonly value: string;
  readonly name: string;
}

/**
 * Hides the access token (§1: tokens are highly sensitive), and any other secret it is given, in
 * everything clockcheck keeps.
 *
 * Every occurrence of the token is replaced by `[REDACTED]` in each of the forms a server, a URL or
 * a header may carry it (secret-forms.ts: each character raw in either letter case, percent-encoded,
 * as an HTML character reference or a JSON escape, in any mix; hex; base64 and base64url at any byte
 * offset, line-wrapped or encoded twice), in header names (in any letter case: HTTP lower-cases
 * them) as well as values. A token shorter than 8 characters is matched only where no letter or
 * digit touches it, so that a short token does not garble every word.
 *
 * `Authorization` header values that contain the token, or are a large piece of it (at least half
 * of it, e.g. a truncated token), become `[REDACTED]` as a whole. Other values, such as a deliberately
 * wrong token sent by the authentication check, are kept so a report can show what was sent.
 */
export class Redactor {
  readonly #token: string;
  /** Global, for replacing. */
  readonly #pattern: RegExp;
  /** The same without the global flag, so testing keeps no `lastIndex` state. */
  readonly #probe: RegExp;
  /** The same in any letter case, for header names (HTTP lower-cases them, base64 forms too). */
  readonly #anyCase: RegExp;
  /** The tokens whose sighting in an answer is a finding (TokenSighting), each with its own probe. */
  readonly #tokens: readonly { readonly name: string; readonly probe: RegExp }[];
  /** False only for a text that certainly holds no secret in any form: redaction leaves it as it is without running the patterns. */
  readonly #mayHold: (text: string) => boolean;
  /** The Authorization values seen and what they redact to (a run sends a handful of them, each on every request). */
  readonly #credentials = new Map<string, string>();

  /**
   * `others`: further secrets hidden the same way, in every form (the webhook subscription's secret,
   * which a subscribe request carries); empty ones are ignored. `tokens`: the secrets that are access
   * tokens, by name (default: `token` alone, "the token"), hidden like the others and besides looked
   * for in each answer (tokenSightings): a target that sends one back shows it to whoever reads its answers.
   * @throws ClockcheckError `CLOCKCHECK_INVALID_OPTION` for an empty token.
   */
  constructor(token: string, others: readonly string[] = [], tokens: readonly NamedToken[] = [{ value: token, name: 'the token' }]) {
    if (token.length === 0) throw new ClockcheckError('CLOCKCHECK_INTERNAL', 'the access token is empty');
    this.#token = token;
    const named = tokens.filter((t) => t.value.length > 0);
    const secrets = [...new Set([token, ...others.filter((s) => s.length > 0), ...named.map((t) => t.value)])];
    // Case-sensitive: the forms spell out the letter cases they allow (base64 has one).
    this.#pattern = new RegExp(secrets.map(secretPattern).join('|'), 'g');
    this.#probe = new RegExp(this.#pattern.source);
    this.#anyCase = new RegExp(this.#pattern.source, 'gi');
    this.#tokens = named.map((t) => ({ name: t.name, probe: new RegExp(secretPattern(t.value)) }));
    this.#mayHold = mayHoldAny(secrets);
  }

  /**
   * Where the target's side of a raw (unredacted) exchange shows one of the tokens: the answer's
   * header names and values and its body; for an inbound exchange (a webhook notification), the
   * target's request. One sighting per token and place; the body's place is the JSON pointer of the
   * first string (or key) that holds it, or `body`.
   */
  tokenSightings(raw: Exchange): TokenSighting[] {
    const side = raw.direction === 'inbound' ? { headers: raw.request.headers, body: raw.request.body ?? '' } : raw.response;
    return side === undefined ? [] : this.sightingsIn(side);
  }

  /** Where a message of the target's (its headers and body, unredacted) shows one of the tokens (tokenSightings). */
  sightingsIn(side: { readonly headers: Readonly<Record<string, string>>; readonly body: string }): TokenSighting[] {
    if (this.#tokens.length === 0) return [];
    const out: TokenSighting[] = [];
    for (const token of this.#tokens) {
      const shows = (text: string) => this.#mayHold(text) && revealsWith(token.probe, text);
      for (const [name, value] of Object.entries(side.headers)) {
        if (shows(name) || shows(name.toUpperCase()) || shows(value)) out.push({ token: token.name, where: `header ${name.replace(this.#anyCase, REDACTED)}` });
      }
      if (shows(side.body)) out.push({ token: token.name, where: this.text(bodyPlace(side.body, shows)) });
    }
    return out;
  }

  /** The text with every form of the token replaced; a line-wrapped base64 block that spells it, replaced whole. */
  text(value: string): string {
    if (!this.#mayHold(value)) return value;
    const flat = value.replace(this.#pattern, REDACTED);
    if (!hasLineBreak(flat)) return flat;
    return flat.replace(WRAPPED_BASE64, (block) => (this.#probe.test(block.replace(LINE_BREAKS, '')) ? REDACTED : block));
  }

  /** Whether the text holds the token in any of its forms. */
  reveals(value: string): boolean {
    return this.#mayHold(value) && revealsWith(this.#probe, value);
  }

  /** A header map with redacted values; `Authorization` is redacted whole (see the class doc). */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      // A target may echo the token in a header's name (`x-echo-<token>: 1`), lower-cased on the way.
      const safeName = this.#mayHold(name) ? name.replace(this.#anyCase, REDACTED) : name;
      const safeValue = isCredentialHeader(name) ? this.#credential(value) : this.text(value);
      out[safeName] = out[safeName] === undefined ? safeValue : `${out[safeName]}, ${safeValue}`;
    }
    return out;
  }

  /** A parsed JSON value with every string (keys included) redacted; unchanged parts are shared. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) {
      let changed = false;
      const items = value.map((item) => {
        const redacted = this.json(item);
        changed ||= redacted !== item;
        return redacted;
      });
      return changed ? items : value;
    }
    if (value !== null && typeof value === 'object') {
      let changed = false;
      const entries = Object.entries(value).map(([key, item]) => {
        const entry = [this.text(key), this.json(item)] as const;
        changed ||= entry[0] !== key || entry[1] !== item;
        return entry;
      });
      return changed ? Object.fromEntries(entries) : value;
    }
    return value;
  }

  /** The message of an error and its causes (`CODE: message: cause`), redacted. */
  message(error: unknown): string {
    return this.text(errorMessage(error));
  }

  /**
   * The exchange with its URL, headers, bodies, parsed JSON and error message redacted, and where
   * its answer showed a token (`tokensShown`, looked for only when redaction changed the answer).
   */
  exchange(exchange: Exchange): Exchange {
    const { request, response, error } = exchange;
    const redacted: Exchange = {
      ...exchange,
      request: {
        method: request.method,
        url: this.text(request.url),
        headers: this.headers(request.headers),
        ...(request.body === undefined ? {} : { body: this.text(request.body) }),
      },
      ...(response === undefined ? {} : { response: this.#response(response) }),
      ...(error === undefined ? {} : { error: { code: error.code, message: this.text(error.message) } }),
    };
    if (!answerChanged(exchange, redacted)) return redacted;
    const sightings = this.tokenSightings(exchange);
    return sightings.length === 0 ? redacted : { ...redacted, tokensShown: sightings };
  }

  #response(response: ExchangeResponse): ExchangeResponse {
    const body = this.text(response.body);
    // JSON can spell the token with escapes the text forms miss (`\u0061bc`), so the parsed value is
    // walked whenever the body was redacted or holds an escape at all.
    const walk = response.json !== undefined && (body !== response.body || response.body.includes('\\'));
    return {
      ...response,
      headers: this.headers(response.headers),
      body,
      ...(walk ? { json: this.json(response.json) } : {}),
    };
  }

  #credential(value: string): string {
    let redacted = this.#credentials.get(value);
    if (redacted === undefined) {
      redacted = this.#credentialOf(value);
      if (this.#credentials.size < MAX_CREDENTIALS_KEPT) this.#credentials.set(value, redacted);
    }
    return redacted;
  }

  #credentialOf(value: string): string {
    if (this.reveals(value)) {
      // The scheme is no secret, and a replay (curl.ts) or a recording's reader (`grade`) needs it: `Bearer <token>` becomes
      // `Bearer [REDACTED]`. Anything else that reveals the token (an encoding of it, more around it) is hidden whole.
      const scheme = /^([A-Za-z][A-Za-z0-9-]*) +/.exec(value);
      return scheme && value.slice(scheme[0].length) === this.#token && !this.reveals(scheme[1]!) ? `${scheme[1]} ${REDACTED}` : REDACTED;
    }
    const piece = value.trim();
    return piece.length > 0 && piece.length * 2 >= this.#token.length && this.#token.includes(piece) ? REDACTED : value;
  }
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * Where a message of the target's (headers and body) shows `secret` in one of its common spellings
 * (secretLiterals: plain strings, no regex): for a secret judged once, such as the password a write
 * sent, where building the Redactor's patterns (milliseconds) for each would cost a run seconds.
 * The places are as tokenSightings gives them, the secret in them hidden.
 */
export function literalSightings(side: { readonly headers: Readonly<Record<string, string>>; readonly body: string }, secret: NamedToken): TokenSighting[] {
  const forms = secretLiterals(secret.value);
  if (forms.length === 0) return [];
  const shows = (text: string) => forms.some((form) => text.includes(form));
  const hide = (text: string) => forms.reduce((t, form) => t.split(form).join(REDACTED), text);
  const out: TokenSighting[] = [];
  for (const [name, value] of Object.entries(side.headers)) if (shows(name) || shows(value)) out.push({ token: secret.name, where: `header ${hide(name)}` });
  if (shows(side.body)) out.push({ token: secret.name, where: hide(bodyPlace(side.body, shows)) });
  return out;
}

/** The pattern of one secret's forms; a short one only where no letter or digit touches it. */
function secretPattern(secret: string): string {
  const forms = [...new Set(secretForms(secret))].sort((a, b) => b.length - a.length).join('|');
  return secret.length < MIN_FREE_LENGTH ? `(?<![A-Za-z0-9])(?:${forms})(?![A-Za-z0-9])` : forms;
}

/** Authorization values whose redaction is kept (a hostile replay may send endless distinct ones: those are redacted each time). */
const MAX_CREDENTIALS_KEPT = 64;

/** What no form of a secret can be spelled without: an escape's first character or a line break (secretPlainForms). */
const ESCAPE_OR_BREAK = /[%&\\\r\n]/;

/**
 * A test that is false only for a text that holds none of the secrets in any form: one with no
 * escape and no line break that holds none of their plain forms in any letter case
 * (secretPlainForms; the header names are matched in any case, base64 forms too). Always true when a
 * secret has no plain forms.
 */
function mayHoldAny(secrets: readonly string[]): (text: string) => boolean {
  const plain = secrets.map(secretPlainForms);
  if (plain.some((forms) => forms === null)) return () => true;
  const lowered = [...new Set(plain.flatMap((forms) => [...forms!.lowered, ...forms!.exact.map((f) => f.toLowerCase())]))];
  const shortest = Math.min(...lowered.map((f) => f.length));
  return (text) => {
    if (text.length < shortest) return false;
    if (ESCAPE_OR_BREAK.test(text)) return true;
    const lower = text.toLowerCase();
    return lowered.some((form) => lower.includes(form));
  };
}

/** Whether the text holds what `probe` finds, also inside a line-wrapped base64 block. */
function revealsWith(probe: RegExp, value: string): boolean {
  if (probe.test(value)) return true;
  return hasLineBreak(value) && [...value.matchAll(WRAPPED_BASE64)].some(([block]) => probe.test(block.replace(LINE_BREAKS, '')));
}

/** Whether redaction changed the target's side of the exchange (its answer, or an inbound request). */
function answerChanged(raw: Exchange, redacted: Exchange): boolean {
  const [before, after] = raw.direction === 'inbound' ? [raw.request, redacted.request] : [raw.response, redacted.response];
  if (before === undefined || after === undefined) return false;
  if ((before.body ?? '') !== (after.body ?? '')) return true;
  const names = Object.keys(before.headers);
  return names.length !== Object.keys(after.headers).length || names.some((name) => after.headers[name] !== before.headers[name]);
}

/** The place in a body that holds a secret: the JSON pointer of the first string or key that `shows`, else `body`. */
function bodyPlace(body: string, shows: (text: string) => boolean): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'body';
  }
  const found = pointerWhere(json, '', shows);
  return found === null ? 'body' : `body ${found === '' ? '/' : found}`;
}

function pointerWhere(value: unknown, at: string, shows: (text: string) => boolean): string | null {
  if (typeof value === 'string') return shows(value) ? at : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (shows(key)) return here;
    const inner = pointerWhere(item, here, shows);
    if (inner !== null) return inner;
  }
  return null;
}

function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}
