import type { Rule } from '../../contract/rules.ts';
import type { CurlTlsOptions } from '../curl.ts';
import type { CheckResult, CheckSource, CheckStatus, Finding, RuleOutcome } from '../model.ts';
import { formatDuration } from '../../duration.ts';
import { checkAnchor, exchangeAnchor, ruleAnchor } from './html-anchors.ts';
import { exchangeBlock } from './html-exchange.ts';
import { html, type SafeHtml } from '../safe-html.ts';

/** The order in which the groups of checks are listed: what needs attention first. */
const STATUS_ORDER: readonly CheckStatus[] = ['failed', 'errored', 'waived', 'not-run', 'skipped', 'passed'];

/** Statuses whose checks open to their findings and exchanges. */
const DETAILED: ReadonlySet<CheckStatus> = new Set(['failed', 'errored', 'waived']);

/** Statuses whose checks the page opens with, to their evidence: what needs attention. */
const OPEN_AT_START: ReadonlySet<CheckStatus> = new Set(['failed', 'errored']);

export function statusBadge(status: RuleOutcome): SafeHtml {
  return html`<span class="badge status-${status}">${status}</span>`;
}

function sourceText(source: CheckSource): string {
  switch (source.kind) {
    case 'scenario':
      return `scenario ${source.file}:${source.line}`;
    case 'property':
      return `property ${source.generator}, seed ${source.seed}, path ${source.path}`;
    case 'builtin':
      return `built-in check ${source.name}`;
  }
}

function ruleLink(ruleId: string): SafeHtml {
  return html`<a class="rule-chip mono" href="#${ruleAnchor(ruleId)}">${ruleId}</a>`;
}

function checkRow(check: CheckResult): SafeHtml {
  return html`<div class="check-row">${statusBadge(check.status)}<span class="check-id mono">${check.id}</span><span class="check-title">${check.title}</span>${check.rules.map(ruleLink)}<span class="duration">${formatDuration(check.durationMs)}</span></div>`;
}

function findingBlock(check: CheckResult, finding: Finding, rules: ReadonlyMap<string, Rule>): SafeHtml {
  const seenIn = finding.exchangeIds.map((id, i) => html`${i > 0 ? ', ' : ''}<a href="#${exchangeAnchor(check.id, id)}">#${id}</a>`);
  return html`<div class="finding" data-testid="finding" data-rule-id="${finding.ruleId}">
<div>${ruleLink(finding.ruleId)} <span class="statement">${rules.get(finding.ruleId)?.statement ?? ''}</span></div>
<dl class="expect"><dt>expected</dt><dd>${finding.expected}</dd><dt>actual</dt><dd>${finding.actual}</dd></dl>
${finding.exchangeIds.length > 0 ? html`<div class="muted">seen in exchange ${seenIn}</div>` : ''}
</div>`;
}

/**
 * An exchange opens by itself when it is evidence: a finding names it or it failed in transport.
 * When nothing is singled out (an errored check without a transport error), the last one opens.
 */
function openExchangeIds(check: CheckResult): ReadonlySet<number> {
  const ids = new Set(check.findings.flatMap((f) => f.exchangeIds));
  for (const exchange of check.exchanges) if (exchange.error) ids.add(exchange.id);
  const last = check.exchanges.at(-1);
  if (ids.size === 0 && last) ids.add(last.id);
  return ids;
}

/**
 * Exchanges a check shows in the page: every one that is evidence, then the first others up to 40.
 * A burst's hundreds of calls stay in report.json; the page says how many it left out.
 */
export const HTML_EXCHANGES_PER_CHECK = 40;

function shownExchanges(check: CheckResult, open: ReadonlySet<number>): { shown: CheckResult['exchanges']; left: number } {
  if (check.exchanges.length <= HTML_EXCHANGES_PER_CHECK) return { shown: check.exchanges, left: 0 };
  let room = Math.max(0, HTML_EXCHANGES_PER_CHECK - check.exchanges.filter((e) => open.has(e.id)).length);
  const shown = check.exchanges.filter((e) => open.has(e.id) || (room > 0 && room-- > 0));
  return { shown, left: check.exchanges.length - shown.length };
}

/** The rules of the findings that point at each exchange, by exchange ID. */
function evidenceOf(check: CheckResult): ReadonlyMap<number, readonly string[]> {
  const rules = new Map<number, string[]>();
  for (const finding of check.findings) {
    for (const id of finding.exchangeIds) {
      const named = rules.get(id) ?? [];
      if (!named.includes(finding.ruleId)) named.push(finding.ruleId);
      rules.set(id, named);
    }
  }
  return rules;
}

/**
 * Every exchange of the check in the order it was sent (its setup, its probe, its cleanup; a
 * delivery when the sink got it), each with its curl command, those a finding points at marked.
 */
function exchangesSection(check: CheckResult, open: ReadonlySet<number>, tls: CurlTlsOptions): SafeHtml | '' {
  if (check.exchanges.length === 0) return '';
  const { shown, left } = shownExchanges(check, open);
  const evidence = evidenceOf(check);
  const inOrder = [...shown].sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
  const blocks = inOrder.map((e) => exchangeBlock(check.id, e, { open: open.has(e.id), evidence: evidence.get(e.id) ?? [] }, tls));
  return html`<h4>Exchanges (${check.exchanges.length}), in the order sent</h4>${blocks}${
    left > 0 ? html`<p class="muted" data-testid="exchanges-left-out">${left} more exchanges of this check are in report.json.</p>` : ''
  }`;
}

function checkDetails(check: CheckResult, rules: ReadonlyMap<string, Rule>, tls: CurlTlsOptions): SafeHtml {
  const open = openExchangeIds(check);
  return html`<details class="check status-${check.status}" id="${checkAnchor(check.id)}" data-check-id="${check.id}" data-status="${check.status}"${OPEN_AT_START.has(check.status) ? html` open` : ''}>
<summary>${checkRow(check)}</summary>
<div class="check-body">
<p class="muted">${sourceText(check.source)}</p>
${check.reason !== undefined ? html`<p class="reason status-${check.status}">${check.reason}</p>` : ''}
${check.waiver ? html`<p class="reason status-waived">Waived by the profile for ${ruleLink(check.waiver.rule)}: ${check.waiver.reason}</p>` : ''}
${check.findings.length > 0 ? html`<h4>Findings</h4>${check.findings.map((f) => findingBlock(check, f, rules))}` : ''}
${notesList(check)}
${exchangesSection(check, open, tls)}
<h4>Replay this check</h4>
<pre class="command" data-testid="replay">${check.replay}</pre>
</div>
</details>`;
}

/** Observations a check made besides its verdict (rate-limit headers, burst timings). */
function notesList(check: CheckResult): SafeHtml | '' {
  if (!check.notes || check.notes.length === 0) return '';
  return html`<ul class="notes muted" data-testid="notes">${check.notes.map((n) => html`<li>${n}</li>`)}</ul>`;
}

function checkLine(check: CheckResult): SafeHtml {
  return html`<div class="check status-${check.status}" id="${checkAnchor(check.id)}" data-check-id="${check.id}" data-status="${check.status}">${checkRow(check)}${
    check.reason !== undefined ? html`<div class="check-body muted">${check.reason}</div>` : ''
  }${check.notes && check.notes.length > 0 ? html`<div class="check-body">${notesList(check)}</div>` : ''}</div>`;
}

/**
 * The checks grouped by status, failures first. Failed, errored and waived checks are collapsible
 * and hold their findings, exchanges, curl commands and replay command (failed and errored ones
 * open when the page opens); not-run and skipped ones
 * show their reason; passed ones sit in a closed group.
 */
export function checksSection(checks: readonly CheckResult[], rules: ReadonlyMap<string, Rule>, tls: CurlTlsOptions): SafeHtml {
  const groups = STATUS_ORDER.map((status) => ({ status, checks: checks.filter((c) => c.status === status) })).filter((g) => g.checks.length > 0);
  return html`<section id="checks"><h2>Checks <span class="muted">(${checks.length})</span></h2>
<div class="toolbar"><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button></div>
${groups.map(({ status, checks: grouped }) => {
  const items = grouped.map((c) => (DETAILED.has(status) ? checkDetails(c, rules, tls) : checkLine(c)));
  const heading = html`${statusBadge(status)} ${grouped.length} ${status}`;
  return status === 'passed'
    ? html`<details class="group"><summary class="group-summary">${heading} <span class="muted">(show)</span></summary>${items}</details>`
    : html`<h3>${heading}</h3>${items}`;
})}
</section>`;
}
