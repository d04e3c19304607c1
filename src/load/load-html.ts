import { formatDuration } from '../duration.ts';
import { html, trustedHtml, type SafeHtml } from '../report/safe-html.ts';
import { timelineChart } from './timeline-chart.ts';
import { barChart, type Bar } from './_internals/bar-chart.ts';
import { LOAD_CSP, LOAD_CSS } from './load-css.ts';
import { LATENCY_PERCENTILES, notJudgedBeyondVerdict, type LoadReport } from './load-report.ts';
import type { LoadCheck } from './load-verdict.ts';


function ms(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(2)} ms`;
}

function statusTone(status: number): string {
  if (status === 429) return 't-429';
  return `t-${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`;
}

function fact(term: string, value: SafeHtml | string): SafeHtml {
  return html`<dt>${term}</dt><dd>${value}</dd>`;
}

function runShape(report: LoadReport): string {
  const o = report.options;
  return [
    `${o.connections} connection${o.connections === 1 ? '' : 's'}`,
    o.amount !== null ? `${o.amount} requests` : `${o.durationSeconds} s`,
    o.rate !== null ? `paced at ${o.rate} requests/s` : 'unpaced',
  ].join(' · ');
}

/** Sent, answered, unanswered by what became of them, and the calls a timed run cut off. */
function requestsText(report: LoadReport): string {
  const r = report.requests;
  const by = r.unansweredBy;
  const parts = [`${by.timedOut} timed out`, `${by.lostWithConnection} lost with their connection`, `${by.heldToEnd} held until the run stopped`];
  const cut = r.cutOffAtEnd > 0 ? ` · ${r.cutOffAtEnd} in flight when the time was up (cut off by the run, not judged)` : '';
  return `${r.sent} sent · ${r.completed} answered · ${r.unanswered} unanswered${r.unanswered > 0 ? ` (${parts.join(', ')})` : ''}${cut} · ${report.counts.non2xxExcept429} answers neither 2xx nor 429`;
}

function summarySection(report: LoadReport): SafeHtml {
  const verdict = report.verdict.status === 'passed' ? 'PASSED' : 'FAILED';
  const { counts, target, endpoint } = report;
  const limit = report.options.rateLimit;
  return html`<header class="summary" data-testid="summary">
<div class="summary-head"><span class="verdict verdict-${verdict}" data-testid="verdict">${verdict}</span>
<h1>clockcheck load report</h1><span class="mono">${endpoint.method} ${target.origin}${target.apiPrefix}${endpoint.path}</span>${target.embedded ? html`<span class="muted">(embedded reference server)</span>` : ''}</div>
<ul class="counts">
<li><b>${report.requests.completed}</b> responses</li>
<li><b>${report.throughput.requestsPerSecond.toFixed(0)}</b> req/s</li>
<li class="c-latency"><b>${ms(report.latencyMs.p50)}</b> p50</li>
<li class="c-latency"><b>${ms(report.latencyMs.p99)}</b> p99</li>
<li class="c-2xx" data-testid="count-2xx"><b>${counts.status2xx}</b> 2xx</li>
<li class="c-429" data-testid="count-429"><b>${counts.status429}</b> 429</li>
<li class="c-5xx" data-testid="count-5xx"><b>${counts.status5xx}</b> 5xx</li>
<li data-testid="count-non2xx"><b>${counts.non2xx}</b> non-2xx</li>
<li class="${report.requests.unanswered > 0 ? 'c-error' : ''}" data-testid="count-unanswered"><b>${report.requests.unanswered}</b> unanswered</li>
<li class="${counts.timeouts > 0 ? 'c-error' : ''}" data-testid="count-timeouts"><b>${counts.timeouts}</b> timeouts</li>
<li class="c-error" data-testid="count-errors"><b>${counts.errors}</b> errors (${counts.timeouts} timeouts)</li>
</ul>
<dl class="facts">
${fact('Run', html`<span class="mono">${report.runId}</span> · ${report.startedAt} → ${report.finishedAt} · ${formatDuration(report.durationMs)}`)}
${fact('Load', runShape(report))}
${fact('Requests', requestsText(report))}
${fact('Rate limit judged', limit ? `${limit.limit} calls in any ${limit.windowMs % 1000 === 0 ? `${limit.windowMs / 1000} s` : `${limit.windowMs} ms`} window` : 'none given')}
${fact('Tool', `${report.tool.name} ${report.tool.version}`)}
${report.source === 'artillery' ? fact('Measured by', 'Artillery: its JSON report, read by clockcheck load --from-artillery') : ''}
</dl>
${notJudgedList(report)}
</header>`;
}

/** What this report could not judge (an Artillery report keeps no call's time), one line each, but for what the verdict says. */
function notJudgedList(report: LoadReport): SafeHtml | '' {
  const lines = notJudgedBeyondVerdict(report);
  if (lines.length === 0) return '';
  const items = lines.map((line) => html`<li>not judged: ${line}</li>`);
  return html`<ul class="note" data-testid="not-judged">${items}</ul>`;
}

/** A default check's rule, or `--ensure` on a threshold's line. */
function chip(check: LoadCheck): SafeHtml | '' {
  if (check.id === 'ensure') return html`<span class="rule-chip">--ensure</span>`;
  return check.rule ? html`<span class="rule-chip">${check.rule}</span>` : '';
}

function verdictSection(report: LoadReport): SafeHtml {
  const rows = report.verdict.checks.map(
    (c) => html`<li data-check-id="${c.id}"><span class="badge status-${c.status}">${c.status}</span><span class="check-title">${c.title}</span>${chip(c)}<span class="muted">${c.detail}</span></li>`,
  );
  return html`<section id="verdict"><h2>Verdict</h2><ul class="checks" data-testid="checks">${rows}</ul></section>`;
}

function latencySection(report: LoadReport): SafeHtml {
  const l = report.latencyMs;
  // A percentile the engine does not give (Artillery has no p97.5) has no bar.
  const bars: Bar[] = [
    ...LATENCY_PERCENTILES.flatMap((p) => {
      const value = l[p.key];
      return value === null ? [] : [{ key: p.key, label: p.label, value, text: ms(value), tone: p.key === 'p50' || p.key === 'p75' ? 't-latency' : 't-tail' }];
    }),
    { key: 'max', label: 'max', value: l.max, text: ms(l.max), tone: 't-tail' },
  ];
  const measured = report.source === 'artillery' ? "Artillery's http.response_time: from each call written to its answer's first byte" : 'in whole milliseconds (0: under 1 ms)';
  return html`<section id="latency"><h2>Latency percentiles</h2>
${barChart({ testId: 'latency-chart', dataName: 'percentile', title: `Response latency by percentile, p50 ${ms(l.p50)} to max ${ms(l.max)}`, bars })}
<p class="note">Of every response, 2xx and 429 alike, ${measured}. min ${ms(l.min)} · mean ${ms(l.mean)}${l.stddev === null ? '' : ` · stddev ${ms(l.stddev)}`}</p>
${servedTable(report)}
${byStatusTable(report)}
</section>`;
}

/** The served calls' latency, each call timed by the run: what `--ensure` judges p50 … max against. */
function servedTable(report: LoadReport): SafeHtml | '' {
  const s = report.latencyServedMs;
  if (s === null) return '';
  const cells = [s.p50, s.p90, s.p95, s.p99, s.max, s.mean].map((v) => html`<td class="num">${v.toFixed(2)}</td>`);
  const timed = report.source === 'artillery' ? "Artillery's http.response_time.2xx" : 'each timed by the run to 0.01 ms';
  return html`<p class="note">The served calls (2xx), ${timed}: what --ensure judges a latency against.</p>
<table data-testid="latency-served"><thead><tr><th>Calls</th><th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>mean ms</th></tr></thead><tbody><tr><td class="num">${s.count}</td>${cells}</tr></tbody></table>`;
}

/** Latency per kind of answer: do 429s stay fast next to the served calls? */
function byStatusTable(report: LoadReport): SafeHtml | '' {
  if (report.latencyByStatus.length === 0) return '';
  const rows = report.latencyByStatus.map((s) => html`<tr><td class="mono">${s.kind}</td><td class="num">${s.count}</td><td class="num">${s.p50.toFixed(2)}</td><td class="num">${s.p99.toFixed(2)}</td><td class="num">${s.max.toFixed(2)}</td></tr>`);
  return html`<table data-testid="latency-by-status"><thead><tr><th>Answer</th><th>Responses</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function statusSection(report: LoadReport): SafeHtml {
  const bars: Bar[] = report.statuses.map((s) => ({ key: String(s.status), label: String(s.status), value: s.count, text: String(s.count), tone: statusTone(s.status) }));
  if (report.counts.errors > 0) bars.push({ key: 'error', label: 'errors', value: report.counts.errors, text: `${report.counts.errors} (${report.counts.timeouts} timeouts)`, tone: 't-error' });
  const rows = report.statuses.map((s) => html`<tr><td class="mono">${s.status}</td><td class="num">${s.count}</td></tr>`);
  return html`<section id="statuses"><h2>Status histogram</h2>
${bars.length > 0 ? barChart({ testId: 'status-chart', dataName: 'status', title: `Responses per status code: ${bars.map((b) => `${b.label} ${b.text}`).join(', ')}`, bars }) : html`<p class="muted">No response came back.</p>`}
<table data-testid="status-table"><thead><tr><th>Status</th><th>Responses</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

function throughputSection(report: LoadReport): SafeHtml {
  const t = report.throughput;
  return html`<section id="throughput"><h2>Throughput</h2>
<dl class="facts">
${fact('Average', `${t.requestsPerSecond.toFixed(0)} requests/s over ${formatDuration(report.durationMs)}`)}
${fact(
  report.source === 'artillery' ? 'Per period' : 'Per sample',
  `${t.samples.count} ${report.source === 'artillery' ? "of Artillery's reporting periods" : `sample${t.samples.count === 1 ? '' : 's'}`} of ${formatDuration(t.samples.intervalMs)}: mean ${t.samples.mean.toFixed(0)} · stddev ${t.samples.stddev.toFixed(0)} · min ${t.samples.min.toFixed(0)} · max ${t.samples.max.toFixed(0)} ${report.source === 'artillery' ? 'calls sent/s (http.request_rate)' : 'requests/s'}`,
)}
${fact('Bytes', `${(t.bytesPerSecond / 1024).toFixed(1)} KiB/s`)}
</dl>
${t.perSecond.length > 0 ? html`<h3>Responses per second</h3>${timelineChart(t.perSecond)}<p class="note">Each column is one second of the run: served (2xx) at the bottom, then 429, then any other status.</p>` : ''}
</section>`;
}

/**
 * load.html: one self-contained page (inline stylesheet, inline SVG, no script, nothing loaded)
 * with the verdict, a latency percentile chart and a status histogram. All text is escaped.
 */
export function renderLoadHtml(report: LoadReport): string {
  const verdict = report.verdict.status === 'passed' ? 'PASSED' : 'FAILED';
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${LOAD_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${verdict} · clockcheck load · ${report.endpoint.method} ${report.endpoint.path} · ${report.target.origin}</title>
<style>${trustedHtml(LOAD_CSS)}</style>
</head>
<body>
<main>
${summarySection(report)}
${verdictSection(report)}
${latencySection(report)}
${statusSection(report)}
${throughputSection(report)}
</main>
</body>
</html>
`.markup;
}
