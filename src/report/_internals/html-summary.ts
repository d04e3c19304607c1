import { CHECK_STATUSES, type RunReport, type UnjudgedGroup } from '../model.ts';
import { formatDuration } from '../../duration.ts';
import { countOf } from '../coverage.ts';
import { html, type SafeHtml } from '../safe-html.ts';
import { rulesJudgedText, runVerdict } from '../run-verdict.ts';
import { checkAnchor } from './html-anchors.ts';
import { statusBadge } from './html-checks.ts';

function fact(term: string, value: SafeHtml | string): SafeHtml {
  return html`<dt>${term}</dt><dd>${value}</dd>`;
}

function optionsText(report: RunReport): string {
  const { only, readOnly, suites, budget, minRules } = report.options;
  return [
    only.length > 0 ? `only ${only.join(', ')}` : 'all checks',
    readOnly ? 'read-only' : 'read-write',
    suites.length > 0 ? `suites ${suites.join(', ')}` : 'no suites',
    budget > 0 ? `${budget} generated cases` : 'no generated cases',
    ...(minRules === undefined ? [] : [`at least ${minRules} rules judged (--min-rules)`]),
  ].join(' · ');
}

/** One reason checks judged nothing for: the check (or how many), the reason, and the checks linked. */
function unjudgedItem(group: UnjudgedGroup): SafeHtml {
  const link = (id: string) => html`<a class="mono" href="#${checkAnchor(id)}">${id}</a>`;
  const [first] = group.checkIds;
  const who = group.checkIds.length === 1 && first !== undefined ? link(first) : html`${group.checkIds.length} checks`;
  const list = group.checkIds.length === 1 ? '' : html`<details><summary class="muted">the checks</summary>${group.checkIds.map((id, i) => html`${i > 0 ? ', ' : ''}${link(id)}`)}</details>`;
  return html`<li data-status="${group.status}" data-check-ids="${group.checkIds.join(' ')}">${statusBadge(group.status)} ${who}: <span class="reason-text">${group.reason}</span>${list}</li>`;
}

/** The header: verdict, counts per status, the rules judged, what judged nothing and why, and the facts that identify the run. */
export function summarySection(report: RunReport): SafeHtml {
  const verdict = runVerdict(report);
  const { target, requests, summary } = report;
  return html`<header class="summary" data-testid="summary">
<div class="summary-head"><span class="verdict verdict-${verdict.replace(/ /g, '-')}" data-testid="verdict">${verdict}</span>
<h1>clockcheck conformance report</h1><span class="mono">${target.baseUrl}${target.apiPrefix}</span>${target.embedded ? html`<span class="muted">(embedded reference server)</span>` : ''}</div>
<ul class="counts">${CHECK_STATUSES.map((status) => html`<li class="status-${status}" data-testid="count-${status}"><b>${countOf(summary, status)}</b> ${status === 'not-run' ? 'not run' : status}</li>`)}
<li class="status-uncovered" data-testid="count-rules"><b>${summary.rulesCovered} of ${summary.rulesTotal}</b> rules judged</li></ul>
${summary.unjudged.length > 0 ? html`<ul class="unjudged" data-testid="unjudged">${summary.unjudged.map(unjudgedItem)}</ul>` : ''}
<dl class="facts">
${fact('TLS certificate', html`<span class="mono">${target.tlsFingerprint256 ?? 'not seen'}</span> <span class="muted">SHA-256</span>`)}
${fact('Spec', html`${report.spec.title} <span class="muted">SHA-256</span> <span class="mono">${report.spec.sha256}</span>`)}
${fact('Tool', `${report.tool.name} ${report.tool.version}`)}
${fact('Seed', html`<span class="mono">${report.seed}</span>`)}
${fact('Run', html`<span class="mono">${report.runId}</span> · ${report.startedAt} → ${report.finishedAt} · ${formatDuration(report.durationMs)} (plan ETA ${formatDuration(report.plannedEtaMs)})${report.status === 'interrupted' ? html` · <span class="warn">interrupted</span>` : ''}`)}
${fact('Requests', html`${requests.planned} planned · ${requests.made} made · <span class="${requests.unintended429 > 0 ? 'warn' : ''}">${requests.unintended429} unintended 429${requests.unintended429 > 0 ? ` (${requests.resent} resent after Retry-After)` : ''}</span>`)}
${fact('Coverage', `${rulesJudgedText(summary)} (a rule is judged when a check passed, failed or waived on it)`)}
${fact('Options', optionsText(report))}
${fact('Token', report.tokenForm === 'raw' ? 'sent as §5.2 says: Authorization: <token>' : html`<span class="warn">sent as Authorization: Bearer &lt;token&gt;</span> (the raw form was refused)`)}
</dl>
${report.notes.length > 0 ? html`<ul class="run-notes" data-testid="run-notes">${report.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
<nav class="toc"><a href="#checks">Checks</a><a href="#coverage">Rule coverage</a><a href="#resources">Created resources</a><a href="#profile">Profile</a></nav>
</header>`;
}
