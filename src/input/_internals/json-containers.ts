import type { KeepShape } from './keep-shape.ts';
import { describeByte, JsonTextError, KeptTooLargeError, notJsonAt } from './json-scan-errors.ts';

/** Deeper than any document clockcheck reads (a report nests about eight levels; bodies are strings). */
export const MAX_JSON_DEPTH = 1000;
/** Each value and field name kept is counted this much beyond its text: an object, an array slot, a string's header. */
const KEPT_OVERHEAD = 16;

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

/**
 * The structure of a JSON document as its tokens arrive: the objects and arrays open, innermost last
 * (at most MAX_JSON_DEPTH), what each expects next, what a KeepShape keeps of their items and fields,
 * and the value built of what is kept, whose bytes are counted against `maxKeptBytes`.
 */
export class JsonContainers {
  private readonly stack: Frame[] = [];
  private root: { value: unknown } | null = null;
  /** What is kept so far: each value's and field name's text, and KEPT_OVERHEAD for each. */
  kept = 0;

  constructor(
    private readonly shape: KeepShape,
    private readonly maxKeptBytes: number,
  ) {}

  /**
   * A byte between tokens, where it stands: a `,`, `:` or close where one may come (`punctuation`,
   * taken here), the quote of a field name (`key`), or else the start of a value (`value`, which
   * `valueShape` checks).
   */
  place(byte: number, offset: number): 'punctuation' | 'key' | 'value' {
    const top = this.stack.at(-1);
    if (byte === 0x2c /* , */ && top?.expect === Expect.CommaOrClose) top.expect = Expect.Next;
    else if (byte === 0x3a /* : */ && top?.expect === Expect.Colon) top.expect = Expect.Value;
    else if ((byte === 0x7d /* } */ || byte === 0x5d) /* ] */ && top && top.object === (byte === 0x7d) && (top.expect === Expect.CommaOrClose || top.expect === Expect.First)) this.close(offset);
    else if (byte === 0x22 /* " */ && top?.object && (top.expect === Expect.First || top.expect === Expect.Next)) return 'key';
    else return 'value';
    return 'punctuation';
  }

  /** Whether the field name starting now is kept: its object is. */
  get keyKept(): boolean {
    return this.stack.at(-1)!.shape !== null;
  }

  /** Where a value may start: the document's, an array's item, an object's field value. @returns what to keep of it, or null to skip it. */
  valueShape(byte: number, offset: number): KeepShape | null {
    const top = this.stack.at(-1);
    if (top === undefined) {
      if (this.root !== null) notJsonAt(`${describeByte(byte)} after the document's value`, offset);
      return this.shape;
    }
    const expected = top.object ? top.expect === Expect.Value : top.expect === Expect.First || top.expect === Expect.Next;
    if (!expected) notJsonAt(`unexpected ${describeByte(byte)}`, offset);
    return childShape(top);
  }

  /** An object or array opens, kept by `shape` (null: skipped). */
  open(object: boolean, shape: KeepShape | null, offset: number): void {
    if (this.stack.length >= MAX_JSON_DEPTH) notJsonAt(`it nests deeper than ${MAX_JSON_DEPTH} levels`, offset);
    // A container where the shape wants the other kind, or a scalar, is kept empty: the schema names the mismatch.
    const fits = shape !== null && (shape.kind === 'whole' || shape.kind === (object ? 'object' : 'array'));
    if (shape !== null) this.charge(0, offset);
    this.stack.push({ object, shape: fits ? shape : null, value: shape === null ? null : object ? {} : [], expect: Expect.First, key: null, keyShape: null });
  }

  /** A field name ended: its value comes next, after `:`. */
  key(text: string): void {
    const top = this.stack.at(-1)!;
    top.key = text;
    top.keyShape = fieldShape(top.shape, text);
    top.expect = Expect.Colon;
  }

  /** A value ended: it goes into its container (when kept), which expects a comma or its close next. */
  done(keep: boolean, value: unknown, offset: number): void {
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

  /** Counts `bytes` more kept. @throws KeptTooLargeError past `maxKeptBytes`. */
  charge(bytes: number, offset: number): void {
    this.kept += bytes + KEPT_OVERHEAD;
    if (this.kept > this.maxKeptBytes) throw new KeptTooLargeError(this.maxKeptBytes, offset);
  }

  /** The value kept of the whole document, which ended at `offset`. @throws JsonTextError when a container is still open, or no value came. */
  value(offset: number): unknown {
    if (this.stack.length > 0) throw new JsonTextError(`cut short at byte ${offset}, ${this.stack.length} object(s) or array(s) still open`, offset);
    if (this.root === null) throw new JsonTextError(offset === 0 ? 'empty' : `nothing but whitespace (${offset} bytes)`, offset);
    return this.root.value;
  }

  private close(offset: number): void {
    const frame = this.stack.pop()!;
    this.done(frame.value !== null, frame.value, offset);
  }
}
