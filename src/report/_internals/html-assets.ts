/**
 * The stylesheet and script of report.html, inlined so the file opens offline. Both are written
 * here by clockcheck; the page's Content-Security-Policy admits exactly these two by hash.
 */
export const REPORT_CSS = `
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg-soft:#f6f8fa; --passed:#1a7f37; --failed:#cf222e;
  --errored:#bc4c00; --skipped:#6e7781; --not-run:#0a7ea4; --waived:#8250df; --uncovered:#818b98; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 48px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
a { color: #0969da; text-decoration: none; } a:hover { text-decoration: underline; }
h1 { font-size: 20px; margin: 0; } h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 16px 0 6px; } h4 { font-size: 12px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.muted { color: var(--muted); }
.summary { border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; background: var(--bg-soft); }
.summary-head { display: flex; align-items: center; gap: 14px; flex-wrap: wrap; }
.verdict { font-weight: 700; font-size: 16px; letter-spacing: .06em; color: #fff; padding: 5px 14px; border-radius: 6px; }
.verdict-PASSED { background: var(--passed); } .verdict-FAILED, .verdict-NOT-JUDGED-ENOUGH { background: var(--failed); }
.verdict-ERRORED, .verdict-NOT-RUN, .verdict-INTERRUPTED { background: var(--errored); }
.counts { display: flex; gap: 8px; flex-wrap: wrap; list-style: none; margin: 14px 0 12px; padding: 0; }
.counts li { border: 1px solid var(--line); border-left: 4px solid var(--c); border-radius: 6px; padding: 3px 10px; background: #fff; }
.counts b { font-size: 16px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
.warn { color: var(--failed); font-weight: 600; }
.unjudged { margin: 0 0 12px; padding-left: 20px; } .unjudged li { margin: 2px 0; }
nav.toc { margin: 14px 0 0; display: flex; gap: 16px; }
.badge { display: inline-block; min-width: 68px; text-align: center; font-size: 11.5px; font-weight: 600; text-transform: uppercase;
  letter-spacing: .03em; padding: 1px 6px; border-radius: 10px; color: #fff; background: var(--c); }
.status-passed { --c: var(--passed); } .status-failed { --c: var(--failed); } .status-errored { --c: var(--errored); }
.status-skipped { --c: var(--skipped); } .status-not-run { --c: var(--not-run); } .status-waived { --c: var(--waived); }
.status-uncovered { --c: var(--uncovered); }
.badge.status-uncovered { background: repeating-linear-gradient(135deg, #fff 0 4px, #eaeef2 4px 8px); color: var(--muted); border: 1px dashed var(--uncovered); }
.group-summary { font-weight: 600; margin: 16px 0 6px; cursor: pointer; }
details.group[open] .group-summary .muted { display: none; }
.toolbar { display: flex; gap: 8px; margin: 0 0 8px; }
button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg-soft); cursor: pointer; }
.check { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 6px; background: #fff; }
.check-row { display: flex; align-items: baseline; gap: 10px; padding: 6px 10px; flex-wrap: wrap; }
details.check > summary { list-style: none; cursor: pointer; }
details.check > summary::-webkit-details-marker { display: none; }
details.check > summary .check-row::before { content: "▸"; color: var(--muted); width: 10px; }
details.check[open] > summary .check-row::before { content: "▾"; }
details.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg-soft); }
.check.status-failed { border-left: 4px solid var(--failed); } .check.status-errored { border-left: 4px solid var(--errored); }
.check.status-waived { border-left: 4px solid var(--waived); }
.check-id { font-weight: 600; } .check-title { flex: 1 1 240px; }
.rule-chip { font-size: 11.5px; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; background: var(--bg-soft); }
.duration { color: var(--muted); font-size: 12px; margin-left: auto; }
.check-body { padding: 4px 14px 12px; }
.reason { border-left: 3px solid var(--c, var(--line)); padding: 4px 10px; background: var(--bg-soft); margin: 8px 0; }
.finding { border: 1px solid #ffcecb; background: #fff8f7; border-radius: 6px; padding: 8px 10px; margin: 8px 0; }
.status-waived .finding { border-color: #d8ccf5; background: #fbf9ff; }
.expect { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.expect dt { color: var(--muted); } .expect dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
details.exchange { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; }
details.exchange > summary { cursor: pointer; padding: 4px 10px; background: var(--bg-soft); border-radius: 6px; }
.exchange-body { padding: 2px 12px 10px; }
details.exchange.inbound { border-style: dashed; }
.exchange-step { margin: 8px 0 12px; } .exchange-step > details.exchange { margin: 0 0 4px; }
.exchange-step.evidence > details.exchange { border-color: var(--failed); border-left-width: 4px; }
.evidence-tag { font-size: 11px; font-weight: 600; color: var(--failed); margin-left: 6px; }
.received-tag { font-size: 11px; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; padding: 0 5px; border-radius: 4px; border: 1px solid var(--line); background: #fff; }
.http-pair { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 12px; }
@media (min-width: 1000px) { .http-pair { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
pre { margin: 0; padding: 8px 10px; background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
pre.command { background: #0d1117; color: #e6edf3; border-color: #0d1117; }
.http-status { font-weight: 700; } .http-2xx { color: var(--passed); } .http-4xx { color: var(--errored); } .http-5xx, .http-error { color: var(--failed); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--line); }
td.nowrap { white-space: nowrap; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; }
tr.section-row th { background: var(--bg-soft); padding-top: 10px; font-size: 13px; }
tr.section-row .muted { font-weight: 400; margin-left: 8px; }
tr.uncovered td { background: repeating-linear-gradient(135deg, #fff 0 6px, #f6f8fa 6px 12px); }
tr.uncovered .rule-id { color: var(--muted); }
.statement { color: var(--muted); font-size: 12.5px; }
:target { scroll-margin-top: 12px; outline: 2px solid #0969da; outline-offset: 1px; }
`;

export const REPORT_SCRIPT = `
for (const button of document.querySelectorAll('button[data-action]')) {
  button.addEventListener('click', () => {
    const open = button.dataset.action === 'expand';
    for (const details of document.querySelectorAll('details.check')) details.open = open;
  });
}
function openLinkedDetails() {
  let id = '';
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
  const target = id === '' ? null : document.getElementById(id);
  for (let node = target; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
}
window.addEventListener('hashchange', openLinkedDetails);
openLinkedDetails();
`;
