import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A body at least this large counts toward the collection budget: 64 KiB. */
export const LARGE_BODY_BYTES = 64 * 1024;
/** Bytes of large bodies read between two full collections: 8 MiB. */
export const LARGE_BODY_BUDGET_BYTES = 8 * 1024 * 1024;

/**
 * Keeps what a run holds independent of what the target sends. Each large body becomes a buffer and
 * a string that live only while a check judges it, but V8 promotes large strings at once and frees
 * them only at a full collection, which it puts off while the heap may grow: a target answering
 * 1 MB bodies grew a run to 330 MB before it came (issue 10). So after every LARGE_BODY_BUDGET_BYTES
 * of large bodies the collector asks for one full collection (about 10 ms on a harness heap of
 * 50 MB). Small bodies never trigger one; a run against a conforming target rarely does.
 */
export class LargeBodyCollector {
  #pending = 0;
  readonly #collect: (() => void) | null;
  /** Full collections asked for so far. */
  collections = 0;

  constructor(collect: (() => void) | null = exposedGc()) {
    this.#collect = collect;
  }

  /** Counts a body of `bytes`; collects once the budget is spent. */
  note(bytes: number): void {
    if (bytes < LARGE_BODY_BYTES || this.#collect === null) return;
    this.#pending += bytes;
    if (this.#pending < LARGE_BODY_BUDGET_BYTES) return;
    this.#collect_();
  }

  /**
   * Collects now if a large body (or a large text, such as a rendered report) was noted since the
   * last collection: before building something big, so it is not built on top of the garbage.
   */
  settle(): void {
    if (this.#pending === 0 || this.#collect === null) return;
    this.#collect_();
  }

  #collect_(): void {
    this.#pending = 0;
    this.collections++;
    this.#collect!();
  }
}

let gc: (() => void) | null | undefined;

/** V8's `gc()` (exposed for this process on first use), or null where it cannot be had. */
function exposedGc(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    const global = globalThis as { gc?: () => void };
    if (typeof global.gc === 'function') {
      gc = global.gc;
    } else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  } catch {
    gc = null;
  }
  return gc;
}

/** The process's one collector: the garbage it bounds is the whole process's. */
export const LARGE_BODIES = new LargeBodyCollector();
