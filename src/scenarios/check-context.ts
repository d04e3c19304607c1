import { PreconditionFailed, SkipCheck, type CheckContext } from '../checks/context.ts';
import type { ScenarioRun } from './scenario-run.ts';

/** The context a built-in check of a scenario runs in: it sends, judges and notes through the scenario. */
export function checkContext(run: ScenarioRun): CheckContext {
  const { deps } = run;
  return {
    send: (request) => run.send(request),
    fail: (ruleId, expected, actual, shown) => {
      const ids = (shown ?? run.exchanges.slice(-1)).map((e) => e.id);
      run.findings.push({ ruleId, expected, actual, exchangeIds: ids });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    precondition: (reason) => {
      throw new PreconditionFailed(reason);
    },
    lastExchange: () => run.last,
    render: (value) => run.render(value),
    acquire: deps.acquire,
    keep: (exchange) => run.keep(exchange),
    notJudged: (ruleId, why) => {
      run.notJudged.add(ruleId);
      run.notes.push(`${ruleId} not judged: ${why}`);
    },
    note: (text) => void run.notes.push(text),
    remainingMs: () => Math.max(0, (deps.deadlineMs ?? Number.POSITIVE_INFINITY) - Date.now()),
    doneSending: () => {
      if (!run.lastStep || run.released) return;
      run.released = true;
      run.release?.();
    },
    sink: deps.sink,
    profile: deps.profile,
    origin: deps.origin,
    defaultRule: run.defaultRule,
  };
}
