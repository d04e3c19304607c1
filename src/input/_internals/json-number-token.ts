import { describeByte, notJsonAt } from './json-scan-errors.ts';

/** The longest number kept: a JSON number of more digits than any double holds is not a report's. */
const MAX_NUMBER_CHARS = 400;

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

/**
 * One JSON number read across chunks: each byte checked against the grammar, its text kept (up to
 * MAX_NUMBER_CHARS) only when its value is. A number has no closing byte: it ends at the first byte
 * that is not its own, or at the document's end.
 */
export class NumberToken {
  /** Whether its text is kept (else its bytes are only checked). */
  keep = false;
  private text = '';
  private state = Num.Integer;

  /** A number starting with `byte` (`-` or a digit). */
  start(byte: number, keep: boolean): void {
    this.keep = keep;
    this.text = keep ? String.fromCharCode(byte) : '';
    this.state = byte === 0x2d ? Num.Minus : byte === 0x30 ? Num.Zero : Num.Integer;
  }

  /**
   * The number's bytes from `from` (`base`: the document's bytes before the chunk).
   * @returns the index of the first byte that is not the number's, or the chunk's length.
   * @throws JsonTextError for a byte the grammar refuses, or a kept number past MAX_NUMBER_CHARS.
   */
  read(chunk: Uint8Array, from: number, base: number): number {
    let i = from;
    for (; i < chunk.length; i++) {
      const next = nextNumberState(this.state, chunk[i]!);
      if (next === Num.End) break;
      if (next === Num.Invalid) notJsonAt(`unexpected ${describeByte(chunk[i]!)} in a number`, base + i);
      this.state = next;
    }
    if (this.keep) {
      if (this.text.length + i - from > MAX_NUMBER_CHARS) notJsonAt(`a number longer than ${MAX_NUMBER_CHARS} characters`, base + i);
      this.text += Buffer.from(chunk.buffer, chunk.byteOffset + from, i - from).toString('latin1');
    }
    return i;
  }

  /**
   * The number's text now that it ended at `offset` ('' when not kept).
   * @throws JsonTextError when it ended where the grammar does not let it (`-`, `1.`, `1e+`).
   */
  end(offset: number): string {
    if (!NUMBER_ENDS.has(this.state)) notJsonAt('a number cut short', offset);
    return this.text;
  }
}
