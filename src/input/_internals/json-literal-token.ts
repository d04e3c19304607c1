import { describeByte, notJsonAt } from './json-scan-errors.ts';

const LITERALS = { t: ['true', true], f: ['false', false], n: ['null', null] } as const;

/** One of `true`, `false` and `null`, read across chunks byte by byte. */
export class LiteralToken {
  /** Whether its value is kept. */
  keep = false;
  private literal: (typeof LITERALS)[keyof typeof LITERALS] = LITERALS.n;
  private at = 0;

  /** A literal starting with `byte` (`t`, `f` or `n`), whose first byte was read. */
  start(byte: number, keep: boolean): void {
    this.keep = keep;
    this.literal = LITERALS[String.fromCharCode(byte) as keyof typeof LITERALS];
    this.at = 1;
  }

  /**
   * The literal's bytes from `from`, up to its last or the chunk's end (`base`: the document's bytes
   * before the chunk). @returns the index after the last byte read.
   * @throws JsonTextError for a byte that is not the literal's.
   */
  read(chunk: Uint8Array, from: number, base: number): number {
    const [word] = this.literal;
    let i = from;
    for (; i < chunk.length && this.at < word.length; i++, this.at++) {
      if (chunk[i] !== word.charCodeAt(this.at)) notJsonAt(`unexpected ${describeByte(chunk[i]!)} (not ${word})`, base + i);
    }
    return i;
  }

  /** Whether all of the literal was read. */
  get complete(): boolean {
    return this.at === this.literal[0].length;
  }

  /** The literal's word, for what keeping it costs. */
  get word(): string {
    return this.literal[0];
  }

  /** The literal's value. */
  get value(): boolean | null {
    return this.literal[1];
  }
}
