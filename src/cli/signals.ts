import type { Interruption, StopSignal } from '../execute/interruption.ts';

const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Hands SIGINT and SIGTERM to a run's interruption until the returned function is called, saying on
 * stderr what each did: the first stops the run (nothing more is sent; the reports are written with
 * status `interrupted`), the second skips its cleanup. Without it, a signal would end the process
 * with no report.
 */
export function listenForSignals(interruption: Interruption, stderr: { write(text: string): unknown } = process.stderr): () => void {
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      const effect = interruption.receive(signal);
      if (effect === 'interrupted') {
        stderr.write(`\nclockcheck: ${signal}: stopping; nothing more is sent, the reports are written with what was judged (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again skips the cleanup)\n`);
      } else if (effect === 'cleanup-skipped') {
        stderr.write(`clockcheck: ${signal} again: the cleanup is skipped; the reports say what was left on the target\n`);
      }
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
