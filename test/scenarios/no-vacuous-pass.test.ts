import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { loadSuites } from '../../src/scenarios/loader.ts';
import { runScenario } from '../../src/scenarios/run-scenario.ts';
import type { CheckResult } from '../../src/report/model.ts';
import { startRunSink, type SinkProfile } from '../../src/webhooks/run-sink.ts';
import { Redactor } from '../../src/client/redaction.ts';
import { fakeSend, profileWith, scenarioDeps, type Reply } from './support.ts';

const SUITES = join(import.meta.dirname, '../../suites');

/** Every fixture and extension a suite may ask for, so no scenario is skipped for a missing profile key. */
const profile = profileWith({
  versioned_prefix: '/api/v2',
  fixtures: {
    active_user_ids: [1, 2, 3],
    inactive_user_id: 4,
    job_id: 1,
    task_id: 1,
    break_rule_id: 1,
    role_user_ids: { admin: [1], manager: [2], employee: [3] },
    timesheet: { id: 1, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' },
  },
  webhook: { subscribe_path: '/webhooks/subscribe', subscribe_body: { url: '{{ sink.url }}' }, read_path: '/webhooks', sink: {} },
});

/** Runs every scenario of suites/ against a target that answers `reply` to every request. */
async function certifyAgainst(reply: Reply): Promise<CheckResult[]> {
  const scenarios = await loadSuites(SUITES, '**/*.yaml', BUILTIN_CHECK_NAMES);
  const results: CheckResult[] = [];
  const sink = await startRunSink(profile.webhook as SinkProfile, { secret: 'a-secret', redactor: new Redactor('a-token'), nextExchangeId: () => 1000 });
  try {
    for (const loaded of scenarios) {
      const { send } = fakeSend(() => reply);
      const { deps } = scenarioDeps(send, { profile });
      results.push(await runScenario(loaded, { ...deps, sink, template: { ...deps.template, sink: { url: sink.url, secret: 'a-secret' } } }));
    }
  } finally {
    await sink.close();
  }
  return results;
}

const table = (results: readonly CheckResult[]) => results.map((r) => `${r.id}: ${r.status}${r.reason ? ` (${r.reason.slice(0, 100)})` : ''}`);

describe('no scenario of suites/ passes against a target that fails every baseline', () => {
  it('a target that answers 500 to everything: no scenario passes; transport/head-on-lists is errored with the reason', async () => {
    const results = await certifyAgainst({ status: 500, json: { message: 'Server Error' } });
    // https-only is the one exception, and a sound one: the plain-HTTP ports of this fake host are
    // closed, and a closed port serves no API data whatever HTTPS answers (HTTPS did answer).
    const judged = results.filter((r) => r.id !== 'transport/https-only' && r.status !== 'skipped');
    expect(table(judged.filter((r) => r.status === 'passed'))).toEqual([]);
    expect(judged.length).toBeGreaterThan(80);
    const head = results.find((r) => r.id === 'transport/head-on-lists')!;
    expect(head).toMatchObject({ status: 'errored', findings: [] });
    expect(head.reason).toBe('GET /users answered 500 and HEAD answered 500: HEAD parity needs a GET that succeeds (2xx)');
    expect(results.find((r) => r.id === 'transport/head-on-errors')).toMatchObject({ status: 'errored', findings: [] });
    // A minimal pair whose valid baseline got a 500: errored, no finding under rules it never tested.
    const pairs = results.filter((r) => r.reason?.startsWith('the valid baseline '));
    expect(pairs.length).toBeGreaterThan(10);
    expect(pairs.every((r) => r.status === 'errored' && r.findings.length === 0)).toBe(true);
    // The skipped ones are skipped for the profile's readings and declarations only, never for the target's answers.
    expect(results.filter((r) => r.status === 'skipped').every((r) => /^certifies |^needs sort_names\.id, which the profile does not declare$/.test(r.reason ?? ''))).toBe(true);
  });

  it('a target that answers nothing (every connection reset): every scenario is errored or failed, none passed', async () => {
    const results = await certifyAgainst({ error: 'CONNECTION_RESET' });
    const judged = results.filter((r) => r.status !== 'skipped');
    expect(table(judged.filter((r) => r.status === 'passed'))).toEqual([]);
    expect(results.find((r) => r.id === 'transport/https-only')).toMatchObject({ status: 'errored', findings: [] });
  });

  it('a target whose lists are served empty: the walks and sorts never pass', async () => {
    const results = await certifyAgainst({ status: 200, json: { items: [], meta_data: { pagination: { current_page: 1, first_page_url: 'https://target.test:8443/api/public/users?page=1', from: null, last_page: 1, last_page_url: 'https://target.test:8443/api/public/users?page=1', next_page_url: null, path: 'https://target.test:8443/api/public/users', per_page: 10, prev_page_url: null, to: null, total: 0 } } } });
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('pagination/walk-other-lists')!.status).not.toBe('passed');
    const sortScenarios = results.filter((r) => r.rules.some((rule) => rule.startsWith('SORT-')) && r.source.kind === 'scenario');
    expect(sortScenarios.length).toBeGreaterThan(0);
    expect(table(sortScenarios.filter((r) => r.status === 'passed'))).toEqual([]);
  });
});
