import type { Exchange } from '../client/exchange.ts';
import type { ProgressStream } from '../report/progress.ts';

/**
 * A run's progress on its way to `stream`, held back until the run is made, so that a run that
 * cannot be made (unreachable, TLS, a refused token, a redirect) prints its cause before anything
 * else. The preflight (run/preflight.ts) sends at most two requests and is made when one of them is
 * answered 2xx or when it lets the run go on; so a 2xx, or a third exchange, shows the run is made.
 * Pass `observe` as the run's `onExchange` and call `settle` when the run has ended.
 */
export class HeldProgress implements ProgressStream {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  readonly #stream: ProgressStream;
  #held: string[] | null = [];
  #seen = 0;

  constructor(stream: ProgressStream) {
    this.#stream = stream;
    this.isTTY = stream.isTTY;
    this.columns = stream.columns;
  }

  write(text: string): void {
    if (this.#held) this.#held.push(text);
    else this.#stream.write(text);
  }

  /** Counts an exchange of the run; the first that shows the run is made lets the progress through. */
  observe(exchange: Exchange): void {
    this.#seen++;
    const status = exchange.response?.status ?? 0;
    if ((status >= 200 && status < 300) || this.#seen > 2) this.#release();
  }

  /** The run has ended: made, what is still held goes out; not made, it is dropped (the counts of a preflight that failed). */
  settle(made: boolean): void {
    if (made) this.#release();
    else this.#held = [];
  }

  #release(): void {
    const held = this.#held;
    this.#held = null;
    for (const text of held ?? []) this.#stream.write(text);
  }
}
