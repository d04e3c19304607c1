import { describeByte, KeptTooLargeError, notJsonAt } from './json-scan-errors.ts';

/** The longest field name kept for a lookup: a field name, never a body. */
const MAX_KEY_BYTES = 64 * 1024;

/**
 * One JSON string (a field name or a value) read across chunks: its escapes and control characters
 * checked byte by byte, its bytes kept only when its value is, and decoded once it ends. A kept field
 * name is bounded by MAX_KEY_BYTES, a kept value by what the scanner may still keep.
 */
export class StringToken {
  /** A field name, not a value. */
  isKey = false;
  /** Whether its text is kept (else its bytes are only checked). */
  keep = false;
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private escaped = false;
  /** After a backslash: -1 before the escape's letter, then the \u digits still to come. */
  private escape = 0;

  constructor(private readonly maxKeptBytes: number) {}

  start(isKey: boolean, keep: boolean): void {
    this.isKey = isKey;
    this.keep = keep;
    this.escaped = false;
    this.escape = 0;
  }

  /**
   * The bytes of the string from `from` up to its closing quote, or the chunk's end (`base`: the
   * document's bytes before the chunk; `kept`: the bytes the scanner keeps so far).
   * @returns the index of the closing quote, or the chunk's length.
   * @throws JsonTextError for a control character or a bad escape; KeptTooLargeError past the bound.
   */
  read(chunk: Uint8Array, from: number, base: number, kept: number): number {
    const n = chunk.length;
    let i = from;
    while (i < n && this.escape !== 0) this.escapeByte(chunk[i]!, base + i++);
    // The loop every byte of a skipped body goes through: nothing but the three bytes that matter.
    for (; i < n; i++) {
      const byte = chunk[i]!;
      if (byte === 0x22 || byte === 0x5c || byte < 0x20) {
        if (byte === 0x22) break;
        if (byte < 0x20) notJsonAt(`a control character (${describeByte(byte)}) inside a string`, base + i);
        this.escaped = true;
        this.escape = -1;
        while (i + 1 < n && this.escape !== 0) this.escapeByte(chunk[++i]!, base + i);
      }
    }
    if (this.keep) this.keepBytes(chunk, from, i, base, kept);
    return i;
  }

  /** The string's text once it ended ('' when not kept); the token is then empty for the next string. */
  take(): string {
    const text = this.keep ? this.decoded() : '';
    this.parts = [];
    this.partsBytes = 0;
    return text;
  }

  /** One byte of an escape: its letter, or a digit of \u. */
  private escapeByte(byte: number, offset: number): void {
    if (this.escape > 0) {
      const hex = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66);
      if (!hex) notJsonAt(`${describeByte(byte)} in a \\u escape`, offset);
      this.escape--;
    } else if (byte === 0x75 /* u */) this.escape = 4;
    else if (byte === 0x22 || byte === 0x5c || byte === 0x2f || byte === 0x62 || byte === 0x66 || byte === 0x6e || byte === 0x72 || byte === 0x74) this.escape = 0;
    else notJsonAt(`an invalid escape \\${String.fromCharCode(byte)}`, offset);
  }

  private keepBytes(chunk: Uint8Array, from: number, to: number, base: number, kept: number): void {
    if (to === from) return;
    this.partsBytes += to - from;
    if (this.isKey && this.partsBytes > MAX_KEY_BYTES) notJsonAt(`a field name longer than ${MAX_KEY_BYTES} bytes`, base + to);
    if (!this.isKey && kept + this.partsBytes > this.maxKeptBytes) throw new KeptTooLargeError(this.maxKeptBytes, base + to);
    this.parts.push(Buffer.from(chunk.subarray(from, to)));
  }

  private decoded(): string {
    const raw = (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)).toString('utf8');
    return this.escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }
}
