import type { KeepShape } from './keep-shape.ts';
import { describeByte, JsonTextError, notJsonAt } from './json-scan-errors.ts';
import { JsonContainers } from './json-containers.ts';
import { LiteralToken } from './json-literal-token.ts';
import { NumberToken } from './json-number-token.ts';
import { StringToken } from './json-string-token.ts';

/** Which token the scanner is inside, across chunks (between tokens: whitespace or punctuation). */
const enum Lex {
  Between,
  String,
  Number,
  Literal,
}

/**
 * A streaming JSON parser that keeps only what a KeepShape names: `write` each chunk of the file,
 * then `end` for the value kept. Memory is the kept part (bounded by `maxKeptBytes`) and the
 * nesting (at most MAX_JSON_DEPTH), whatever the document's size: a skipped string of a gigabyte
 * is never held. The whole text is still checked as JSON (RFC 8259), as JSON.parse would.
 * The scanner cuts the bytes into tokens, each read by its own reader across chunks; the tokens
 * build the document's structure and the value kept (JsonContainers).
 * @throws JsonTextError where the text stops being JSON; KeptTooLargeError past the bound.
 */
export class JsonScanner {
  private readonly containers: JsonContainers;
  private lex = Lex.Between;
  /** Bytes of the document before the current chunk. */
  private base = 0;
  private readonly string: StringToken;
  private readonly number = new NumberToken();
  private readonly literal = new LiteralToken();

  constructor(shape: KeepShape, maxKeptBytes: number) {
    this.containers = new JsonContainers(shape, maxKeptBytes);
    this.string = new StringToken(maxKeptBytes);
  }

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

  /** The value kept of the whole document. @throws JsonTextError when the text ended early. */
  end(): unknown {
    if (this.lex === Lex.Number) this.endNumber(this.base);
    if (this.lex === Lex.String || this.lex === Lex.Literal) throw new JsonTextError(`cut short at byte ${this.base}, inside a ${this.lex === Lex.String ? 'string' : 'literal'}`, this.base);
    return this.containers.value(this.base);
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

  /** A byte between tokens: punctuation, or the start of a string, number or literal. */
  private token(byte: number, offset: number): void {
    const place = this.containers.place(byte, offset);
    if (place === 'key') this.startString(true, this.containers.keyKept);
    else if (place === 'value') this.startValue(byte, offset);
  }

  private startValue(byte: number, offset: number): void {
    const shape = this.containers.valueShape(byte, offset);
    if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) this.containers.open(byte === 0x7b, shape, offset);
    else if (byte === 0x22) this.startString(false, shape !== null);
    else if (byte === 0x2d /* - */ || (byte >= 0x30 && byte <= 0x39)) {
      this.number.start(byte, shape !== null);
      this.lex = Lex.Number;
    } else if (byte === 0x74 || byte === 0x66 || byte === 0x6e) {
      this.literal.start(byte, shape !== null);
      this.lex = Lex.Literal;
    } else notJsonAt(`unexpected ${describeByte(byte)}`, offset);
  }

  private startString(isKey: boolean, keep: boolean): void {
    this.lex = Lex.String;
    this.string.start(isKey, keep);
  }

  private stringBytes(chunk: Uint8Array, from: number): number {
    const i = this.string.read(chunk, from, this.base, this.containers.kept);
    if (i === chunk.length) return i;
    this.endString(this.base + i);
    return i + 1;
  }

  /** A string ended: a field name, or a value for its container. */
  private endString(offset: number): void {
    this.lex = Lex.Between;
    const { isKey, keep } = this.string;
    const text = this.string.take();
    if (isKey) this.containers.key(text);
    else {
      if (keep) this.containers.charge(text.length, offset);
      this.containers.done(keep, text, offset);
    }
  }

  private numberBytes(chunk: Uint8Array, from: number): number {
    const i = this.number.read(chunk, from, this.base);
    if (i < chunk.length) this.endNumber(this.base + i);
    return i;
  }

  private endNumber(offset: number): void {
    const text = this.number.end(offset);
    this.lex = Lex.Between;
    const keep = this.number.keep;
    if (keep) this.containers.charge(text.length, offset);
    this.containers.done(keep, keep ? Number(text) : undefined, offset);
  }

  private literalBytes(chunk: Uint8Array, from: number): number {
    const i = this.literal.read(chunk, from, this.base);
    if (this.literal.complete) {
      this.lex = Lex.Between;
      const keep = this.literal.keep;
      if (keep) this.containers.charge(this.literal.word.length, this.base + i);
      this.containers.done(keep, this.literal.value, this.base + i);
    }
    return i;
  }
}
