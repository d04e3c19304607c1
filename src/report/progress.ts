/** Where progress goes: a writable text stream; `isTTY` picks the rewritten bar over plain lines. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** Default `process.stderr`. */
  readonly stream?: ProgressStream;
  /** A short label shown before the counts (control characters dropped, cut at 40 characters). */
  readonly label?: string;
  /** Requests planned at the start; the plan can grow with `plan()`. Default 0. */
  readonly total?: number;
  /**
   * Milliseconds left for `remaining` requests, e.g. from `Pacer.estimateMs`. The larger of this and
   * the estimate from the pace so far is shown. Default: the pace so far only.
   */
  readonly estimateMs?: (remaining: number) => number;
  /** Plain output: a line whenever another 10 % is done, or at least this often. Default 10 000 ms. */
  readonly plainEveryMs?: number;
  /** TTY output: redraw at most this often. Default 100 ms. */
  readonly redrawEveryMs?: number;
  /** Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Shows how far a run is: on a TTY one bar with an ETA rewritten in place (`\r`) and cleared at the
 * end; otherwise a plain line such as `[ 120/400] 30% ETA 2m10s` every 10 % or every 10 s. It prints
 * only counts, durations and the label, never request data.
 */
export class Progress {
  readonly #stream: ProgressStream;
  readonly #label: string;
  readonly #estimateMs: ((remaining: number) => number) | undefined;
  readonly #plainEveryMs: number;
  readonly #redrawEveryMs: number;
  readonly #now: () => number;
  readonly #startedAt: number;
  #total: number;
  #done = 0;
  #lastDrawAt: number;
  #lastTenth = 0;
  #drawn = false;
  #finished = false;

  constructor(options: ProgressOptions = {}) {
    this.#stream = options.stream ?? process.stderr;
    this.#label = cleanLabel(options.label ?? '');
    this.#total = Math.max(0, options.total ?? 0);
    this.#estimateMs = options.estimateMs;
    this.#plainEveryMs = options.plainEveryMs ?? 10_000;
    this.#redrawEveryMs = options.redrawEveryMs ?? 100;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    // A TTY bar appears at the first tick; plain lines wait for the first 10 % or 10 s.
    this.#lastDrawAt = this.#stream.isTTY ? Number.NEGATIVE_INFINITY : this.#startedAt;
  }

  /** Requests done so far and requests planned. */
  get done(): number {
    return this.#done;
  }

  get total(): number {
    return this.#total;
  }

  /** Adds `more` requests to the plan (the plan only grows). */
  plan(more: number): void {
    this.#total += Math.max(0, more);
    this.#lastTenth = this.#tenth();
  }

  /** Counts `count` more requests as done (default 1) and redraws when due. */
  tick(count = 1): void {
    if (this.#finished) return;
    this.#done += count;
    if (this.#done > this.#total) this.#total = this.#done;
    const now = this.#now();
    if (this.#stream.isTTY) {
      if (now - this.#lastDrawAt >= this.#redrawEveryMs || this.#done === this.#total) this.#drawBar(now);
      return;
    }
    const tenth = this.#tenth();
    if (tenth > this.#lastTenth || now - this.#lastDrawAt >= this.#plainEveryMs) {
      this.#lastTenth = Math.max(this.#lastTenth, tenth);
      this.#lastDrawAt = now;
      this.#stream.write(`${this.#line(now)}\n`);
    }
  }

  /** Ends the display: clears the bar on a TTY; plain output gets a last line unless it just had one. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#stream.isTTY) {
      if (this.#drawn) this.#stream.write('\r\x1b[K');
    } else if (this.#lastTenth < 10 && this.#done > 0) {
      this.#stream.write(`${this.#line(this.#now())}\n`);
    }
  }

  #drawBar(now: number): void {
    this.#lastDrawAt = now;
    this.#drawn = true;
    const line = this.#line(now);
    const room = (this.#stream.columns ?? 80) - line.length - 4;
    const width = Math.min(30, room);
    const bar = width >= 10 ? ` [${'#'.repeat(Math.round((width * this.#fraction()))).padEnd(width, '.')}]` : '';
    this.#stream.write(`\r${line}${bar}\x1b[K`);
  }

  #tenth(): number {
    return Math.floor(this.#fraction() * 10);
  }

  #fraction(): number {
    return this.#total === 0 ? 0 : Math.min(1, this.#done / this.#total);
  }

  /** `label [ 120/400] 30% ETA 2m10s` */
  #line(now: number): string {
    const total = String(this.#total);
    const counts = `[${String(this.#done).padStart(total.length + 1)}/${total}]`;
    const eta = this.#done < this.#total ? ` ETA ${formatEta(this.#etaMs(now))}` : '';
    return `${this.#label ? `${this.#label} ` : ''}${counts} ${Math.floor(this.#fraction() * 100)}%${eta}`;
  }

  #etaMs(now: number): number {
    const remaining = this.#total - this.#done;
    const byPace = this.#done === 0 ? 0 : ((now - this.#startedAt) / this.#done) * remaining;
    return Math.max(byPace, this.#estimateMs?.(remaining) ?? 0);
  }
}

/** An ETA for people, rounded up to the second: `45s`, `2m10s`, `1h02m`. */
export function formatEta(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

function cleanLabel(label: string): string {
  return label.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 40);
}
