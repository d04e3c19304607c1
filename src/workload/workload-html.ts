import { formatDuration } from '../duration.ts';
import { LOAD_CSP, LOAD_CSS } from '../load/load-css.ts';
import { timelineChart } from '../load/timeline-chart.ts';
import { html, trustedHtml, type SafeHtml } from '../report/safe-html.ts';
import type { OperationFigures } from './operation-stats.ts';
import type { WorkloadReport } from './workload-report.ts';


const WIDTH = 720;
const HEIGHT = 160;
const AXIS = 56;
const BOTTOM = 22;

const ms = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${Number.isInteger(n) ? n : n.toFixed(2)} ms`);

/** p50 and p99 of the 2xx, second by second, as two lines on a linear scale from 0 to the slowest p99. Inline SVG. */
function latencyChart(operation: string, f: OperationFigures): SafeHtml {
  const series = f.latencyPerSecond;
  const top = Math.max(1, ...series.map((s) => s.p99 ?? 0));
  const plotWidth = WIDTH - AXIS - 8;
  const plotHeight = HEIGHT - BOTTOM - 8;
  const step = plotWidth / Math.max(1, series.length);
  const line = (key: 'p50' | 'p99') =>
    series
      .filter((s) => s[key] !== null)
      .map((s) => `${(AXIS + (s.second + 0.5) * step).toFixed(1)},${(HEIGHT - BOTTOM - ((s[key] as number) / top) * plotHeight).toFixed(1)}`)
      .join(' ');
  return html`<svg class="chart" data-testid="latency-per-second" data-operation="${operation}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${operation}: p50 and p99 of the 2xx per second, up to ${ms(top)}" xmlns="http://www.w3.org/2000/svg">
<title>${operation}: p50 and p99 of the 2xx per second, up to ${ms(top)}</title>
<line class="axis" x1="${AXIS}" y1="8" x2="${AXIS}" y2="${HEIGHT - BOTTOM}"></line>
<line class="axis" x1="${AXIS}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH - 8}" y2="${HEIGHT - BOTTOM}"></line>
<text class="bar-value" x="${AXIS - 6}" y="14" text-anchor="end">${ms(top)}</text>
<text class="bar-value" x="${AXIS - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">0</text>
<text class="bar-value" x="${AXIS}" y="${HEIGHT - 6}">0 s</text>
<text class="bar-value" x="${WIDTH - 8}" y="${HEIGHT - 6}" text-anchor="end">${series.length} s</text>
<polyline class="lat-p50" data-line="p50" points="${line('p50')}"></polyline>
<polyline class="lat-p99" data-line="p99" points="${line('p99')}"></polyline>
</svg>`;
}

function operationRow(name: string, share: string, f: OperationFigures): SafeHtml {
  const l = f.latencyServedMs;
  return html`<tr data-operation="${name}"><td>${name}</td><td>${share}</td><td>${f.sent}</td><td>${f.counts.status2xx}</td><td>${f.counts.status4xx}</td><td>${f.counts.status429}</td><td>${f.counts.status5xx}</td><td>${f.counts.errors}</td><td>${ms(l?.p50)}</td><td>${ms(l?.p95)}</td><td>${ms(l?.p99)}</td><td>${ms(l?.max)}</td><td>${f.requestsPerSecond.toFixed(1)}</td></tr>`;
}

/**
 * load.html of a workload run: one self-contained page (inline stylesheet, inline SVG, no script,
 * nothing loaded) with the verdict, a table per operation and the total, and for each operation its
 * responses per second (served, 429, other) and the p50 and p99 of its 2xx, second by second. All
 * text is escaped.
 */
export function renderWorkloadHtml(report: WorkloadReport): string {
  const verdict = report.verdict.status === 'passed' ? 'PASSED' : 'FAILED';
  const w = report.workload;
  const checks = report.verdict.checks.map(
    (c) => html`<li data-check-id="${c.id}" data-operation="${c.operation ?? ''}"><span class="badge status-${c.status}">${c.status}</span><span class="check-title">${c.title}</span>${c.rule ? html`<span class="chip">${c.rule}</span>` : ''}<span class="muted">${c.detail}</span></li>`,
  );
  const perOperation = report.operations.map(
    (o) => html`<section class="operation" data-testid="operation" data-operation="${o.operation}"><h3>${o.operation} <span class="muted">${o.share.toFixed(1)}% of the requests · ${o.sent} sent · ${o.requestsPerSecond.toFixed(1)} req/s</span></h3>
${timelineChart(o.perSecond)}
${latencyChart(o.operation, o)}
</section>`,
  );
  const scenarios = report.scenarios.map(
    (s) => html`<tr data-scenario="${s.name}"><td>${s.name}</td><td>${s.weight}</td><td>${s.started}</td><td>${s.completed ?? "–"}</td><td>${s.stopped.map((x) => `${x.count} × ${x.reason}`).join('; ') || '–'}</td><td>${s.cutAtEnd}</td><td>${ms(s.durationMs?.p50)}</td><td>${ms(s.durationMs?.p99)}</td></tr>`,
  );
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${LOAD_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${verdict} · clockcheck load · workload ${w.name} · ${report.target.origin}</title>
<style>${trustedHtml(LOAD_CSS)}</style>
</head>
<body>
<main>
<header class="summary" data-testid="summary">
<div class="summary-head"><span class="verdict verdict-${verdict}" data-testid="verdict">${verdict}</span>
<h1>clockcheck load report: workload ${w.name}</h1><span class="mono">${report.target.origin}${report.target.apiPrefix}</span>${report.target.embedded ? html`<span class="muted">(embedded reference server)</span>` : ''}</div>
<p>${w.arrivalText} · ${formatDuration(report.durationMs)} · seed ${w.seed}${w.readOnly ? ' · read-only' : ''}</p>
<p class="note">Model ${w.model}. Arrivals: ${report.arrivals.scheduled} scheduled, ${report.arrivals.started} started, ${report.arrivals.dropped} dropped.</p>
</header>
<section id="verdict"><h2>Verdict</h2><ul class="checks" data-testid="checks">${checks}</ul></section>
<section id="operations"><h2>Per operation</h2>
<table class="ops" data-testid="operations"><thead><tr><th>operation</th><th>share</th><th>sent</th><th>2xx</th><th>4xx</th><th>429</th><th>5xx</th><th>errors</th><th>p50</th><th>p95</th><th>p99</th><th>max</th><th>req/s</th></tr></thead>
<tbody>${report.operations.map((o) => operationRow(o.operation, `${o.share.toFixed(1)}%`, o))}${operationRow('total', '100%', report.total)}</tbody></table>
<p class="note">Latency of the 2xx, each timed from its request written to its body read.</p>
</section>
<section id="scenarios"><h2>Flows</h2>
<table class="ops" data-testid="scenarios"><thead><tr><th>scenario</th><th>weight</th><th>started</th><th>completed</th><th>stopped</th><th>cut at end</th><th>p50</th><th>p99</th></tr></thead><tbody>${scenarios}</tbody></table>
<p class="note">A flow stops at its first answer that is not 2xx (the steps after it use what it would have created). Length of the completed flows, think times included.</p>
</section>
<section id="over-time"><h2>Each operation over time</h2>
<p class="note">Per second: responses (served at the bottom, then 429, then any other status), and the p50 (blue) and p99 (orange) of the 2xx.</p>
${perOperation}
</section>
</main>
</body>
</html>
`.markup;
}
