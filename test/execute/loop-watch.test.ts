import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runProcess } from '../support/cli.ts';

/** loop-watch.ts from the sources, which the process runs through tsx. */
const LOOP_WATCH = pathToFileURL(join(ROOT, 'src/execute/loop-watch.ts')).href;

/**
 * `lines` as an ES module in a process of its own, after `const watch = watchLoop()`: an event loop
 * that empties is a process's fact, so it is watched in one.
 */
function withWatch(...lines: string[]) {
  const script = [`const { watchLoop } = await import(${JSON.stringify(LOOP_WATCH)});`, 'const watch = watchLoop();', ...lines].join('\n');
  return runProcess(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], process.env);
}

describe('a run that waits on nothing is noticed, never a silent exit 13', () => {
  it('resolves `emptied` when the event loop empties while a promise nothing can settle is awaited, and the process goes on', async () => {
    const result = await withWatch(
      "const outcome = await Promise.race([new Promise(() => {}), watch.emptied.then(() => 'emptied')]);",
      "console.log(outcome, watch.fired(), process.listenerCount('beforeExit'));",
    );
    expect(result.stdout.trim()).toBe('emptied true 0');
    expect(result.code).toBe(0);
  });

  it('costs nothing while the loop has work, and stops watching once disposed', async () => {
    const result = await withWatch('await new Promise((resolve) => setTimeout(resolve, 20));', 'watch.dispose();', "console.log(watch.fired(), process.listenerCount('beforeExit'));");
    expect(result.stdout.trim()).toBe('false 0');
  });
});
