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

/** @throws JsonTextError `<reason> at byte <offset>`. */
export function notJsonAt(reason: string, offset: number): never {
  throw new JsonTextError(`${reason} at byte ${offset}`, offset);
}

/** A byte as an error shows it: the character when it is printable ASCII, else its hex. */
export function describeByte(byte: number): string {
  return byte > 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}
