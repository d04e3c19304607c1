import type { ProgressStream } from '../report/progress.ts';

/**
 * A run's progress on its way to `stream`, held back until the run is made, so that a run that
 * cannot be made (unreachable, TLS, a refused token, a redirect, a profile the target contradicts)
 * prints its cause before anything else. Pass `made` as the run's `onMade` (certify calls it once
 * the preflight shows the run can be made) and call `settle` when the run has ended.
 */
export class HeldProgress implements ProgressStream {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  readonly #stream: ProgressStream;
  #held: string[] | null = [];

  constructor(stream: ProgressStream) {
    this.#stream = stream;
    this.isTTY = stream.isTTY;
    this.columns = stream.columns;
  }

  write(text: string): void {
    if (this.#held) this.#held.push(text);
    else this.#stream.write(text);
  }

  /** The run is made: what is held goes out, and what follows goes straight through. */
  made(): void {
    const held = this.#held;
    this.#held = null;
    for (const text of held ?? []) this.#stream.write(text);
  }

  /** The run has ended: made, what is still held goes out; not made, it is dropped (the counts of a preflight that failed). */
  settle(made: boolean): void {
    if (made) this.made();
    else this.#held = [];
  }
}
