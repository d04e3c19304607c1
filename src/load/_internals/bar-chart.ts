import { html, trustedHtml, type SafeHtml } from '../../report/safe-html.ts';

/** One bar: its label on the left, its value as the bar's length, its text after the bar. */
export interface Bar {
  /** The value of the bar's `data-*` attribute (`p99`, `429`), so tests and people can find it. */
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly text: string;
  /** A CSS class that colours the bar. */
  readonly tone: string;
}

export interface BarChart {
  readonly testId: string;
  /** Names the `data-*` attribute of each bar: `data-percentile`, `data-status`. */
  readonly dataName: 'percentile' | 'status';
  /** Read by screen readers and shown as the SVG's tooltip. */
  readonly title: string;
  readonly bars: readonly Bar[];
}

const WIDTH = 720;
const LABEL = 70;
const TEXT = 120;
const ROW = 28;
const BAR = 18;

/**
 * A horizontal bar chart as inline SVG, drawn on a linear scale from 0 to the largest value, every
 * bar labelled with its value so the smallest stay readable. All text is escaped.
 */
export function barChart(chart: BarChart): SafeHtml {
  const largest = Math.max(0, ...chart.bars.map((b) => b.value));
  const plot = WIDTH - LABEL - TEXT;
  const height = chart.bars.length * ROW + 8;
  // The attribute name is one of two constants (typed), never text from a report.
  const dataAttribute = trustedHtml(`data-${chart.dataName}`);
  const rows = chart.bars.map((bar, i) => {
    const y = 4 + i * ROW;
    const length = largest > 0 && bar.value > 0 ? Math.max(2, (bar.value / largest) * plot) : 0;
    const width = length.toFixed(1);
    return html`<text class="bar-label" x="${LABEL - 8}" y="${y + ROW / 2}" text-anchor="end" dominant-baseline="middle">${bar.label}</text>
<rect class="bar ${bar.tone}" ${dataAttribute}="${bar.key}" x="${LABEL}" y="${y + (ROW - BAR) / 2}" width="${width}" height="${BAR}" rx="2"><title>${bar.label}: ${bar.text}</title></rect>
<text class="bar-value" x="${LABEL + length + 6}" y="${y + ROW / 2}" dominant-baseline="middle">${bar.text}</text>`;
  });
  return html`<svg class="chart" data-testid="${chart.testId}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${chart.title}" xmlns="http://www.w3.org/2000/svg">
<title>${chart.title}</title>
<line class="axis" x1="${LABEL}" y1="0" x2="${LABEL}" y2="${height}"></line>
${rows}
</svg>`;
}
