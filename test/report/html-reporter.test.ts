import { RULES } from '../../src/contract/rules.ts';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html-reporter.ts';
import { HOSTILE_TITLE, sampleReport, sampleReportWithDelivery } from './sample-report.ts';
import { HTML_EXCHANGES_PER_CHECK } from '../../src/report/_internals/html-checks.ts';
import { exchangeAnchor } from '../../src/report/_internals/html-anchors.ts';

const html = renderHtmlReport(sampleReport(), { caFile: '/tmp/ca.pem' });

/** The markup of the element that carries `data-check-id="id"`, up to the next check. */
function checkMarkup(id: string): string {
  const start = html.indexOf(`data-check-id="${id}"`);
  if (start < 0) throw new Error(`no check ${id}`);
  const next = html.indexOf('data-check-id=', start + 1);
  return html.slice(start, next < 0 ? undefined : next);
}

/**
 * The block of exchange `id` in `checkId`: its collapsible request and response, and the curl
 * command under it, up to the next exchange or the replay command.
 */
function exchangeStep(page: string, checkId: string, id: number): string {
  const at = page.indexOf(`id="${exchangeAnchor(checkId, id)}"`);
  if (at < 0) throw new Error(`no exchange ${id} in ${checkId}`);
  const start = page.lastIndexOf('<div class="exchange-step', at);
  const ends = [page.indexOf('<div class="exchange-step', at), page.indexOf('<h4>Replay this check', at)].filter((i) => i > 0);
  return page.slice(start, Math.min(...ends));
}

describe('report.html', () => {
  it('has exactly one script element, its own: the hostile bodies are escaped text', () => {
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).not.toContain(HOSTILE_TITLE);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&#39;xss&#39;)&lt;/script&gt;');
    expect(html).toContain('&lt;html&gt;&lt;body&gt;&lt;script&gt;alert(document.cookie)');
  });

  it('is self-contained: no external resource, and a CSP that forbids loading anything', () => {
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b|<[^>]*\ssrc=|@import|url\(/i);
    expect(html).not.toMatch(/href="(?!#)/);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^"]+; script-src &#39;sha256-/);
  });

  it('carries the test hooks: summary, verdict, coverage, one data-check-id per check, findings and curl', () => {
    for (const hook of ['summary', 'verdict', 'coverage']) expect(html).toContain(`data-testid="${hook}"`);
    for (const check of sampleReport().checks) expect(html).toContain(`data-check-id="${check.id}"`);
    expect(html.match(/data-testid="finding"/g)).toHaveLength(4);
    expect(html).toContain('data-testid="curl"');
  });

  it('shows the verdict and the facts of the run in the summary', () => {
    expect(html).toMatch(/data-testid="verdict">FAILED</);
    for (const fact of ['https://127.0.0.1:8443/api/public', 'AB:CD:EF:01', '20261001', '31.5 s', '8 planned', '7 made', '0 unintended 429', `9 of ${RULES.length}</b> rules judged`]) {
      expect(html).toContain(fact);
    }
  });

  it('puts each failed, errored and waived check in a <details> with its evidence, the failed and errored ones open', () => {
    const opening = (id: string) => {
      const start = html.lastIndexOf('<', html.indexOf(`data-check-id="${id}"`));
      return html.slice(start, html.indexOf('>', start) + 1);
    };
    for (const id of ['schedules/date-format-rejects-feb-30', 'timesheets/offset-matches-zone', 'breaks/list-by-ids', 'transport/head-parity-users']) {
      expect(opening(id).startsWith('<details ')).toBe(true);
      expect(checkMarkup(id)).toContain('data-testid="replay"');
      expect(checkMarkup(id)).toContain('data-testid="curl"');
    }
    for (const id of ['schedules/date-format-rejects-feb-30', 'timesheets/offset-matches-zone', 'breaks/list-by-ids']) expect(opening(id)).toMatch(/ open>$/);
    expect(opening('transport/head-parity-users')).not.toMatch(/ open>$/);
    expect(opening('users/list-filter-active')).not.toMatch(/ open>$/);
    const failed = checkMarkup('schedules/date-format-rejects-feb-30');
    expect(failed).toContain('-H &quot;authorization: $CLOCKCHECK_TOKEN&quot;');
    expect(failed).toContain('O&#39;\\&#39;&#39;Brien');
    expect(checkMarkup('transport/head-parity-users')).toContain('HEAD is answered by the load balancer');
    expect(checkMarkup('timesheets/offset-matches-zone')).toContain('Body truncated by the outcome');
  });

  it("shows a check's notes (observations, not verdicts), escaped, even when it passed", () => {
    expect(checkMarkup('users/list-filter-active')).toContain('data-testid="notes"><li>first 429 (exchange 9): retry-after: 58 &lt;b&gt;</li>');
  });

  it('pretty-prints JSON bodies', () => {
    expect(checkMarkup('breaks/list-by-ids')).toContain('{\n  &quot;ids&quot;: [\n    1,\n    2\n  ]\n}');
  });

  it('lists every rule by section, the ones no check judged marked, judged ones linked to their checks', () => {
    expect(html.match(/<tr id="rule-/g)).toHaveLength(RULES.length);
    // 9 judged: the errored BRK-IDS-FILTER and the skipped WH-UNSUBSCRIBE are not.
    expect(html.match(/<tr id="rule-[^"]+" class="uncovered"/g)).toHaveLength(RULES.length - 9);
    expect(html).toMatch(/<tr id="rule-BRK-IDS-FILTER" class="uncovered"[^]*?status-errored/);
    expect(html).toContain('§2.1 Schedule<span class="muted">2/19 judged</span>');
    expect(html).toContain(`(9 of ${RULES.length} rules judged)`);
    expect(html).toMatch(/<tr id="rule-SCH-DATE-FORMAT" class="covered"[^]*?href="#check-schedules\/date-format-rejects-feb-30"/);
  });

  it('lists the created resources', () => {
    expect(html).toMatch(/<td>schedule<\/td><td class="mono">102<\/td>/);
  });

  it('is the same bytes for the same report', () => {
    expect(renderHtmlReport(sampleReport(), { caFile: '/tmp/ca.pem' })).toBe(html);
  });
});

describe('report.html exchanges', () => {
  it('shows both the response head and the error when the body did not complete', () => {
    const report = sampleReport();
    const checks = report.checks.map((c) =>
      c.id === 'schedules/date-format-rejects-feb-30'
        ? { ...c, exchanges: c.exchanges.map((e) => ({ ...e, error: { code: 'BODY_TIMEOUT' as const, message: 'body stalled after 10 s' } })) }
        : c,
    );
    const page = renderHtmlReport({ ...report, checks }, {});
    expect(page).toContain('201 Created</span>, then <span class="http-status http-error">BODY_TIMEOUT</span>');
    expect(page).toContain('Transport error <b>BODY_TIMEOUT</b> after the response head: body stalled after 10 s');
  });

  it('marks a webhook delivery the sink received as received, with the sink\'s answer and no curl', () => {
    const page = renderHtmlReport(sampleReportWithDelivery(), { caFile: '/tmp/ca.pem' });
    const block = (id: number) => exchangeStep(page, 'webhooks/notifications-stop', id);
    const delivery = block(9);
    expect(delivery).toContain('<details class="exchange inbound"');
    expect(delivery).toContain('<span class="received-tag">received</span> <code>POST /hook</code> ← from the target');
    expect(delivery).toContain('answered <span class="http-status http-2xx">200 OK</span>');
    expect(delivery).toContain('Delivery <span class="muted">received 2026-10-01T09:00:02.250Z</span>');
    expect(delivery).toContain('POST http://127.0.0.1:9411/hook\ncontent-type: application/json');
    expect(delivery).toContain('x-webhook-signature: 5f2b9c0e');
    expect(delivery).toContain('Sink&#39;s answer');
    expect(delivery).toContain('&quot;received&quot;: 3');
    expect(delivery).not.toContain('data-testid="curl"');
    expect(delivery).not.toContain('Reproduce with curl');
    expect(delivery).not.toContain('→');
    // The request clockcheck sent in the same check keeps its curl command.
    const sent = block(8);
    expect(sent).toContain('<details class="exchange"');
    expect(sent).toContain('Request <span class="muted">sent');
    expect(sent).toContain('data-testid="curl"');
    expect(page).not.toMatch(/curl[^<]*127\.0\.0\.1:9411/);
  });

  it("shows every request of a multi-step check in the order sent, each with its curl command, and marks the one a finding points at", () => {
    const report = sampleReport();
    const template = report.checks.find((c) => c.id === 'schedules/date-format-rejects-feb-30')!;
    const base = template.exchanges[0]!;
    const step = (id: number, method: 'POST' | 'PUT' | 'GET', path: string, status: number) => ({
      ...base,
      id,
      sentAtMs: base.sentAtMs + id * 100,
      request: { ...base.request, method, url: `https://127.0.0.1:8443/api/public${path}` },
      response: { ...base.response!, status },
    });
    const setup = step(20, 'POST', '/users', 201);
    const probe = step(21, 'PUT', '/users/77', 200);
    const cleanup = step(22, 'GET', '/users/77', 200);
    const check = {
      ...template,
      id: 'users/edit-rules',
      // Kept out of order: the page orders them as they were sent.
      exchanges: [probe, cleanup, setup],
      findings: [{ ruleId: 'USR-PASSWORD-CLASSES' as const, expected: 'a 4xx', actual: '200', exchangeIds: [21] }],
    };
    const page = renderHtmlReport({ ...report, checks: [check] }, { caFile: '/tmp/ca.pem' });
    expect([...page.matchAll(/data-exchange-id="(\d+)"/g)].map((m) => m[1])).toEqual(['20', '21', '22']);
    expect(page).toContain('Exchanges (3), in the order sent');
    const blocks = [20, 21, 22].map((id) => exchangeStep(page, 'users/edit-rules', id));
    for (const block of blocks) {
      // The curl command is outside the collapsible request and response, so it is in view with the check open.
      expect(block.slice(block.indexOf('</details>'))).toMatch(/<pre class="command" data-testid="curl"[^>]*>curl -sS -i (-X [A-Z]+ )?--cacert/);
      expect(block).toContain('-H &quot;authorization: $CLOCKCHECK_TOKEN&quot;');
    }
    expect(blocks[0]).toContain("&#39;https://127.0.0.1:8443/api/public/users&#39;");
    expect(blocks[1]).toContain('-X PUT');
    expect(blocks[1]).toMatch(/^<div class="exchange-step evidence" data-exchange-id="21" data-evidence="USR-PASSWORD-CLASSES">\n<details class="exchange" id="[^"]+" open>/);
    expect(blocks[1]).toContain('<span class="evidence-tag" data-testid="evidence">finding: USR-PASSWORD-CLASSES</span>');
    for (const plain of [blocks[0]!, blocks[2]!]) {
      expect(plain).toMatch(/^<div class="exchange-step" data-exchange-id="\d+">\n<details class="exchange" id="[^"]+">/);
      expect(plain).not.toContain('data-testid="evidence"');
    }
  });

  it('shows at most HTML_EXCHANGES_PER_CHECK exchanges of a check, every finding\'s among them, and says how many it left out', () => {
    const report = sampleReport();
    const template = report.checks.find((c) => c.exchanges.length > 0)!;
    const exchanges = Array.from({ length: 300 }, (_, i) => ({ ...template.exchanges[0]!, id: 1000 + i }));
    const burst = { ...template, id: 'rate-limit/boundary', status: 'failed' as const, exchanges, findings: [{ ruleId: 'RATE-LIMIT-CAP' as const, expected: 'e', actual: 'a', exchangeIds: [1250] }] };
    const page = renderHtmlReport({ ...report, checks: [burst] }, {});
    expect(page).toContain('Exchanges (300)');
    const anchor = exchangeAnchor('rate-limit/boundary', 0).replace(/0$/, '');
    expect(page.split(`id="${anchor}`).length - 1).toBe(HTML_EXCHANGES_PER_CHECK);
    expect(page).toContain(`id="${exchangeAnchor('rate-limit/boundary', 1250)}"`);
    expect(page).toContain(`id="${exchangeAnchor('rate-limit/boundary', 1000)}"`);
    expect(page).not.toContain(`id="${exchangeAnchor('rate-limit/boundary', 1299)}"`);
    expect(page).toContain(`${300 - HTML_EXCHANGES_PER_CHECK} more exchanges of this check are in report.json.`);
  });
});
