import { createHash } from 'node:crypto';

/** The stylesheet of load.html, inlined so the file opens offline; admitted by hash in the page's CSP. */
export const LOAD_CSS = `
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg-soft:#f6f8fa; --passed:#1a7f37; --failed:#cf222e; --skipped:#6e7781;
  --s2xx:#1a7f37; --s3xx:#0969da; --s4xx:#bc4c00; --s429:#8250df; --s5xx:#cf222e; --error:#82071e; --latency:#0969da; --tail:#bc4c00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1000px; margin: 0 auto; padding: 20px 24px 48px; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
h1 { font-size: 20px; margin: 0; } h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.muted { color: var(--muted); }
.summary { border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; background: var(--bg-soft); }
.summary-head { display: flex; align-items: center; gap: 14px; flex-wrap: wrap; }
.verdict { font-weight: 700; font-size: 16px; letter-spacing: .06em; color: #fff; padding: 5px 14px; border-radius: 6px; }
.verdict-PASSED { background: var(--passed); } .verdict-FAILED { background: var(--failed); }
.counts { display: flex; gap: 8px; flex-wrap: wrap; list-style: none; margin: 14px 0 12px; padding: 0; }
.counts li { border: 1px solid var(--line); border-left: 4px solid var(--c, var(--line)); border-radius: 6px; padding: 3px 10px; background: #fff; }
.counts b { font-size: 16px; }
.c-2xx { --c: var(--s2xx); } .c-429 { --c: var(--s429); } .c-5xx { --c: var(--s5xx); } .c-error { --c: var(--error); } .c-latency { --c: var(--latency); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
.checks { list-style: none; padding: 0; margin: 0; }
.checks li { display: flex; gap: 10px; align-items: baseline; padding: 5px 0; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.badge { display: inline-block; min-width: 68px; text-align: center; font-size: 11.5px; font-weight: 600; text-transform: uppercase;
  letter-spacing: .03em; padding: 1px 6px; border-radius: 10px; color: #fff; background: var(--c); }
.status-passed { --c: var(--passed); } .status-failed { --c: var(--failed); } .status-skipped { --c: var(--skipped); }
.check-title { font-weight: 600; } .rule-chip { font-size: 11.5px; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; background: var(--bg-soft); }
.chart { display: block; width: 100%; max-width: 720px; height: auto; margin: 4px 0 10px; }
.chart text { font-size: 12.5px; fill: var(--fg); } .chart .bar-value { fill: var(--muted); }
.chart .axis { stroke: var(--line); stroke-width: 1; }
.bar.t-latency { fill: var(--latency); } .bar.t-tail { fill: var(--tail); }
.chart .lat-p50 { stroke: var(--latency); stroke-width: 1.5; fill: none; } .chart .lat-p99 { stroke: var(--tail); stroke-width: 1.5; fill: none; }
table.ops td, table.ops th { padding: 2px 8px; text-align: right; } table.ops td:first-child, table.ops th:first-child { text-align: left; font-family: ui-monospace, monospace; }
.bar.t-2xx { fill: var(--s2xx); } .bar.t-3xx { fill: var(--s3xx); } .bar.t-4xx { fill: var(--s4xx); } .bar.t-429 { fill: var(--s429); }
.bar.t-5xx { fill: var(--s5xx); } .bar.t-error, .bar.t-1xx { fill: var(--error); }
table { border-collapse: collapse; min-width: 320px; }
th, td { text-align: left; padding: 3px 10px; border-bottom: 1px solid var(--line); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; }
p.note { color: var(--muted); font-size: 12.5px; margin: 4px 0 10px; }
`;

/** Nothing may load from anywhere, and only LOAD_CSS applies (admitted by its hash); the pages have no script. */
export const LOAD_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(LOAD_CSS, 'utf8').digest('base64')}'`;
