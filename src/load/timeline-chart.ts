import { html, type SafeHtml } from '../report/safe-html.ts';
import type { SecondCounts } from './per-second.ts';

const WIDTH = 720;
const HEIGHT = 180;
const AXIS = 48;
const BOTTOM = 22;

/**
 * Responses per second as stacked columns (served, 429, other), one per second of the run, on a
 * linear scale from 0 to the busiest second; the axis is labelled with that maximum. Inline SVG.
 */
export function timelineChart(series: readonly SecondCounts[]): SafeHtml {
  const total = (s: SecondCounts) => s.served + s.limited + s.other;
  const busiest = Math.max(1, ...series.map(total));
  const plotWidth = WIDTH - AXIS - 8;
  const plotHeight = HEIGHT - BOTTOM - 8;
  const step = plotWidth / Math.max(1, series.length);
  const barWidth = Math.max(1, step * 0.8);
  const columns = series.map((s, i) => {
    const x = AXIS + i * step;
    let top = HEIGHT - BOTTOM;
    const parts = (
      [
        ['served', s.served, 't-2xx'],
        ['429', s.limited, 't-429'],
        ['other', s.other, 't-5xx'],
      ] as const
    ).map(([label, n, tone]) => {
      const h = (n / busiest) * plotHeight;
      top -= h;
      return n > 0 ? html`<rect class="bar ${tone}" data-kind="${label}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}"></rect>` : '';
    });
    return html`<g data-second="${s.second}"><title>second ${s.second}: ${s.served} served, ${s.limited} × 429, ${s.other} other</title>${parts}</g>`;
  });
  const last = series.length - 1;
  return html`<svg class="chart" data-testid="timeline-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Responses per second over ${series.length} s, busiest ${busiest}" xmlns="http://www.w3.org/2000/svg">
<title>Responses per second over ${series.length} s, busiest ${busiest}</title>
<line class="axis" x1="${AXIS}" y1="8" x2="${AXIS}" y2="${HEIGHT - BOTTOM}"></line>
<line class="axis" x1="${AXIS}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH - 8}" y2="${HEIGHT - BOTTOM}"></line>
<text class="bar-value" x="${AXIS - 6}" y="14" text-anchor="end">${busiest}/s</text>
<text class="bar-value" x="${AXIS - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">0</text>
<text class="bar-value" x="${AXIS}" y="${HEIGHT - 6}">0 s</text>
<text class="bar-value" x="${WIDTH - 8}" y="${HEIGHT - 6}" text-anchor="end">${last + 1} s</text>
${columns}
</svg>`;
}
