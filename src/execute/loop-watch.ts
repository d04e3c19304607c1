/**
 * Notices a run that waits on nothing: a promise no timer, socket or callback will ever settle.
 * Node then finds its event loop empty with the run still awaited, and without this would end the
 * process with exit 13 ("unsettled top-level await"), printing nothing and writing no report. The
 * loop's emptying (`beforeExit`) resolves `emptied` instead: the run reports what it judged, the
 * checks it did not as errored with the cause, and exits 70 (clockcheck's own bug). In a process
 * whose loop never empties (a test runner's worker) it never fires and costs nothing.
 */
export interface LoopWatch {
  /** Resolves once the event loop emptied while the run was still under way. */
  readonly emptied: Promise<void>;
  /** Whether it did. */
  readonly fired: () => boolean;
  /** Stops watching (the run ended). */
  dispose(): void;
}

/** The watches under way; one `beforeExit` listener serves them all (runs side by side add none). */
const watching = new Set<() => void>();

function onBeforeExit(): void {
  const fire = [...watching];
  watching.clear();
  process.off('beforeExit', onBeforeExit);
  for (const f of fire) f();
}

/** Watches the event loop from now until `dispose()`. */
export function watchLoop(): LoopWatch {
  let fired = false;
  let resolve: () => void = () => {};
  const emptied = new Promise<void>((r) => (resolve = r));
  const fire = (): void => {
    fired = true;
    resolve();
  };
  if (watching.size === 0) process.on('beforeExit', onBeforeExit);
  watching.add(fire);
  return {
    emptied,
    fired: () => fired,
    dispose: () => {
      watching.delete(fire);
      if (watching.size === 0) process.off('beforeExit', onBeforeExit);
    },
  };
}

/** The cause a run reports when its loop emptied while it waited for `what`. */
export function loopEmptiedCause(what: string): string {
  return `internal error: the run waited for ${what} on something nothing could ever settle (the event loop emptied): a bug in clockcheck, please report it; the checks from here on errored`;
}
