import type { KeepShape } from './keep-shape.ts';

/** Why a document is not JSON, saying where (its byte offset) that shows. */
export class JsonTextError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The parts of a document a scanner keeps grew past its bound: the document is not one the reader knows. */
export class KeptTooLargeError extends Error {
  constructor(
    readonly maxKeptBytes: number,
    readonly offset: number,
  ) {
    super(`what is kept of it passes ${maxKeptBytes} bytes at byte ${offset}`);
  }
}

/** Deeper than any document clockcheck reads (a report nests about eight levels; bodies are strings). */
export const MAX_JSON_DEPTH = 1000;
/** The longest field name kept for a lookup: a field name, never a body. */
const MAX_KEY_BYTES = 64 * 1024;
/** Each value and field name kept is counted this much beyond its text: an object, an array slot, a string's header. */
const KEPT_OVERHEAD = 16;
/** The longest number kept: a JSON number of more digits than any double holds is not a report's. */
const MAX_NUMBER_CHARS = 400;

const enum Lex {
  Between,
  String,
  Number,
  Literal,
}

const enum Expect {
  /** Just after `[` or `{`: an item (a key), or the close. */
  First,
  /** After `,`: an item or a key. */
  Next,
  /** After a key: `:`. */
  Colon,
  /** After `:`: the value. */
  Value,
  /** After an item or a value: `,` or the close. */
  CommaOrClose,
}

/** Where a number is in its grammar (RFC 8259 §6), read byte by byte with no string built when it is skipped. */
const enum Num {
  Minus,
  Zero,
  Integer,
  Dot,
  Fraction,
  E,
  ExponentSign,
  Exponent,
  /** The byte is not part of the number: it ends here. */
  End,
  /** The byte cannot be where it is (`01`, `1.e5`, `-x`). */
  Invalid,
}

const NUMBER_ENDS: ReadonlySet<Num> = new Set([Num.Zero, Num.Integer, Num.Fraction, Num.Exponent]);

function nextNumberState(state: Num, byte: number): Num {
  if (byte >= 0x30 && byte <= 0x39) {
    if (state === Num.Minus) return byte === 0x30 ? Num.Zero : Num.Integer;
    if (state === Num.Zero) return Num.Invalid;
    if (state === Num.Dot || state === Num.Fraction) return Num.Fraction;
    return state === Num.Integer ? Num.Integer : Num.Exponent;
  }
  if (byte === 0x2e /* . */) return state === Num.Zero || state === Num.Integer ? Num.Dot : Num.Invalid;
  if (byte === 0x65 || byte === 0x45) return state === Num.Zero || state === Num.Integer || state === Num.Fraction ? Num.E : Num.Invalid;
  if (byte === 0x2b || byte === 0x2d) return state === Num.E ? Num.ExponentSign : Num.Invalid;
  return NUMBER_ENDS.has(state) ? Num.End : Num.Invalid;
}

interface Frame {
  readonly object: boolean;
  /** What to keep of its items or fields; null: nothing (skipped, or kept empty for the schema to refuse). */
  readonly shape: KeepShape | null;
  /** The value being built, or null when the container is skipped. */
  readonly value: Record<string, unknown> | unknown[] | null;
  expect: Expect;
  /** In an object, the field whose value comes next, and what to keep of it. */
  key: string | null;
  keyShape: KeepShape | null;
}

const LITERALS = { t: ['true', true], f: ['false', false], n: ['null', null] } as const;

function childShape(frame: Frame): KeepShape | null {
  if (frame.object) return frame.keyShape;
  const shape = frame.shape;
  if (shape === null) return null;
  return shape.kind === 'whole' ? shape : shape.kind === 'array' ? shape.items : null;
}

function fieldShape(shape: KeepShape | null, key: string): KeepShape | null {
  if (shape === null) return null;
  if (shape.kind === 'whole') return shape;
  return shape.kind === 'object' ? (shape.fields.get(key) ?? shape.others) : null;
}

function describeByte(byte: number): string {
  return byte > 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/**
 * A streaming JSON parser that keeps only what a KeepShape names: `write` each chunk of the file,
 * then `end` for the value kept. Memory is the kept part (bounded by `maxKeptBytes`) and the
 * nesting (at most MAX_JSON_DEPTH), whatever the document's size: a skipped string of a gigabyte
 * is never held. The whole text is still checked as JSON (RFC 8259), as JSON.parse would.
 * @throws JsonTextError where the text stops being JSON; KeptTooLargeError past the bound.
 */
export class JsonScanner {
  private readonly stack: Frame[] = [];
  private lex = Lex.Between;
  /** Bytes of the document before the current chunk. */
  private base = 0;
  private kept = 0;
  private root: { value: unknown } | null = null;
  // The token being read: where its value goes, its bytes if kept, its escape state.
  private keepToken = false;
  private isKey = false;
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private escaped = false;
  /** After a backslash: -1 before the escape's letter, then the \u digits still to come. */
  private escape = 0;
  private numberText = '';
  private numberState = Num.Integer;
  private literal: (typeof LITERALS)[keyof typeof LITERALS] | null = null;
  private literalAt = 0;

  constructor(
    private readonly shape: KeepShape,
    private readonly maxKeptBytes: number,
  ) {}

  write(chunk: Uint8Array): void {
    let i = this.base === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    const n = chunk.length;
    while (i < n) {
      if (this.lex === Lex.String) i = this.stringBytes(chunk, i);
      else if (this.lex === Lex.Number) i = this.numberBytes(chunk, i);
      else if (this.lex === Lex.Literal) i = this.literalBytes(chunk, i);
      else i = this.between(chunk, i);
    }
    this.base += n;
  }

  /** Whitespace, then one token's first byte. */
  private between(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    for (let i = from; i < n; i++) {
      const byte = chunk[i]!;
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) {
        this.token(byte, this.base + i);
        return i + 1;
      }
    }
    return n;
  }

  /** The value kept of the whole document. @throws JsonTextError when the text ended early. */
  end(): unknown {
    if (this.lex === Lex.Number) this.endNumber(this.base);
    const cut = `cut short at byte ${this.base}`;
    if (this.lex === Lex.String || this.lex === Lex.Literal) throw new JsonTextError(`${cut}, inside a ${this.lex === Lex.String ? 'string' : 'literal'}`, this.base);
    if (this.stack.length > 0) throw new JsonTextError(`${cut}, ${this.stack.length} object(s) or array(s) still open`, this.base);
    if (this.root === null) throw new JsonTextError(this.base === 0 ? 'empty' : `nothing but whitespace (${this.base} bytes)`, this.base);
    return this.root.value;
  }

  private fail(reason: string, offset: number): never {
    throw new JsonTextError(`${reason} at byte ${offset}`, offset);
  }

  private charge(bytes: number, offset: number): void {
    this.kept += bytes + KEPT_OVERHEAD;
    if (this.kept > this.maxKeptBytes) throw new KeptTooLargeError(this.maxKeptBytes, offset);
  }

  /** A byte between tokens: punctuation, or the start of a string, number or literal. */
  private token(byte: number, offset: number): void {
    const top = this.stack.at(-1);
    if (byte === 0x2c /* , */ && top?.expect === Expect.CommaOrClose) top.expect = Expect.Next;
    else if (byte === 0x3a /* : */ && top?.expect === Expect.Colon) top.expect = Expect.Value;
    else if ((byte === 0x7d /* } */ || byte === 0x5d) /* ] */ && top && top.object === (byte === 0x7d) && (top.expect === Expect.CommaOrClose || top.expect === Expect.First)) this.close(offset);
    else if (byte === 0x22 /* " */ && top?.object && (top.expect === Expect.First || top.expect === Expect.Next)) this.startString(true, top.shape !== null);
    else this.startValue(byte, offset);
  }

  /** Where a value may start: the document's, an array's item, an object's field value. @returns what to keep of it, or null to skip it. */
  private valueShape(byte: number, offset: number): KeepShape | null {
    const top = this.stack.at(-1);
    if (top === undefined) {
      if (this.root !== null) this.fail(`${describeByte(byte)} after the document's value`, offset);
      return this.shape;
    }
    const expected = top.object ? top.expect === Expect.Value : top.expect === Expect.First || top.expect === Expect.Next;
    if (!expected) this.fail(`unexpected ${describeByte(byte)}`, offset);
    return childShape(top);
  }

  private startValue(byte: number, offset: number): void {
    const shape = this.valueShape(byte, offset);
    if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) this.open(byte === 0x7b, shape, offset);
    else if (byte === 0x22) this.startString(false, shape !== null);
    else if (byte === 0x2d /* - */ || (byte >= 0x30 && byte <= 0x39)) this.startNumber(byte, shape !== null);
    else if (byte === 0x74 || byte === 0x66 || byte === 0x6e) {
      this.keepToken = shape !== null;
      this.literal = LITERALS[String.fromCharCode(byte) as keyof typeof LITERALS];
      this.literalAt = 1;
      this.lex = Lex.Literal;
    } else this.fail(`unexpected ${describeByte(byte)}`, offset);
  }

  private open(object: boolean, shape: KeepShape | null, offset: number): void {
    if (this.stack.length >= MAX_JSON_DEPTH) this.fail(`it nests deeper than ${MAX_JSON_DEPTH} levels`, offset);
    // A container where the shape wants the other kind, or a scalar, is kept empty: the schema names the mismatch.
    const fits = shape !== null && (shape.kind === 'whole' || shape.kind === (object ? 'object' : 'array'));
    if (shape !== null) this.charge(0, offset);
    this.stack.push({ object, shape: fits ? shape : null, value: shape === null ? null : object ? {} : [], expect: Expect.First, key: null, keyShape: null });
  }

  private close(offset: number): void {
    const frame = this.stack.pop()!;
    this.done(frame.value !== null, frame.value, offset);
  }

  /** A value ended: it goes into its container (when kept), which expects a comma or its close next. */
  private done(keep: boolean, value: unknown, offset: number): void {
    const top = this.stack.at(-1);
    if (top === undefined) {
      this.root = { value: keep ? value : undefined };
      return;
    }
    top.expect = Expect.CommaOrClose;
    if (!keep || top.value === null) return;
    if (Array.isArray(top.value)) top.value.push(value);
    else {
      this.charge(top.key!.length, offset);
      // Defined, not assigned: a field named __proto__ is a field, as JSON.parse makes it.
      Object.defineProperty(top.value, top.key!, { value, enumerable: true, writable: true, configurable: true });
    }
  }

  private startString(isKey: boolean, keep: boolean): void {
    this.lex = Lex.String;
    this.isKey = isKey;
    this.keepToken = keep;
    this.escaped = false;
    this.escape = 0;
  }

  /** The bytes of a string up to its closing quote, or the chunk's end; kept only when its value is. */
  private stringBytes(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    let i = from;
    while (i < n && this.escape !== 0) this.escapeByte(chunk[i]!, this.base + i++);
    // The loop every byte of a skipped body goes through: nothing but the three bytes that matter.
    for (; i < n; i++) {
      const byte = chunk[i]!;
      if (byte === 0x22 || byte === 0x5c || byte < 0x20) {
        if (byte === 0x22) break;
        if (byte < 0x20) this.fail(`a control character (${describeByte(byte)}) inside a string`, this.base + i);
        this.escaped = true;
        this.escape = -1;
        while (i + 1 < n && this.escape !== 0) this.escapeByte(chunk[++i]!, this.base + i);
      }
    }
    if (this.keepToken) this.keepBytes(chunk, from, i);
    if (i === n) return n;
    this.endString(this.base + i);
    return i + 1;
  }

  /** One byte of an escape: its letter, or a digit of \u. */
  private escapeByte(byte: number, offset: number): void {
    if (this.escape > 0) {
      const hex = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66);
      if (!hex) this.fail(`${describeByte(byte)} in a \\u escape`, offset);
      this.escape--;
    } else if (byte === 0x75 /* u */) this.escape = 4;
    else if (byte === 0x22 || byte === 0x5c || byte === 0x2f || byte === 0x62 || byte === 0x66 || byte === 0x6e || byte === 0x72 || byte === 0x74) this.escape = 0;
    else this.fail(`an invalid escape \\${String.fromCharCode(byte)}`, offset);
  }

  private keepBytes(chunk: Uint8Array, from: number, to: number): void {
    if (to === from) return;
    this.partsBytes += to - from;
    if (this.isKey && this.partsBytes > MAX_KEY_BYTES) this.fail(`a field name longer than ${MAX_KEY_BYTES} bytes`, this.base + to);
    if (!this.isKey && this.kept + this.partsBytes > this.maxKeptBytes) throw new KeptTooLargeError(this.maxKeptBytes, this.base + to);
    this.parts.push(Buffer.from(chunk.subarray(from, to)));
  }

  private endString(offset: number): void {
    this.lex = Lex.Between;
    const text = this.keepToken ? this.decoded() : '';
    this.parts = [];
    this.partsBytes = 0;
    if (this.isKey) {
      const top = this.stack.at(-1)!;
      top.key = text;
      top.keyShape = fieldShape(top.shape, text);
      top.expect = Expect.Colon;
    } else {
      if (this.keepToken) this.charge(text.length, offset);
      this.done(this.keepToken, text, offset);
    }
  }

  private decoded(): string {
    const raw = (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)).toString('utf8');
    return this.escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private startNumber(byte: number, keep: boolean): void {
    this.lex = Lex.Number;
    this.keepToken = keep;
    this.numberText = keep ? String.fromCharCode(byte) : '';
    this.numberState = byte === 0x2d ? Num.Minus : byte === 0x30 ? Num.Zero : Num.Integer;
  }

  private numberBytes(chunk: Uint8Array, from: number): number {
    let i = from;
    for (; i < chunk.length; i++) {
      const next = nextNumberState(this.numberState, chunk[i]!);
      if (next === Num.End) break;
      if (next === Num.Invalid) this.fail(`unexpected ${describeByte(chunk[i]!)} in a number`, this.base + i);
      this.numberState = next;
    }
    if (this.keepToken) {
      if (this.numberText.length + i - from > MAX_NUMBER_CHARS) this.fail(`a number longer than ${MAX_NUMBER_CHARS} characters`, this.base + i);
      this.numberText += Buffer.from(chunk.buffer, chunk.byteOffset + from, i - from).toString('latin1');
    }
    if (i < chunk.length) this.endNumber(this.base + i);
    return i;
  }

  private endNumber(offset: number): void {
    if (!NUMBER_ENDS.has(this.numberState)) this.fail('a number cut short', offset);
    this.lex = Lex.Between;
    if (this.keepToken) this.charge(this.numberText.length, offset);
    this.done(this.keepToken, this.keepToken ? Number(this.numberText) : undefined, offset);
  }

  private literalBytes(chunk: Uint8Array, from: number): number {
    const [word, value] = this.literal!;
    let i = from;
    for (; i < chunk.length && this.literalAt < word.length; i++, this.literalAt++) {
      if (chunk[i] !== word.charCodeAt(this.literalAt)) this.fail(`unexpected ${describeByte(chunk[i]!)} (not ${word})`, this.base + i);
    }
    if (this.literalAt === word.length) {
      this.lex = Lex.Between;
      if (this.keepToken) this.charge(word.length, this.base + i);
      this.done(this.keepToken, value, this.base + i);
    }
    return i;
  }
}
