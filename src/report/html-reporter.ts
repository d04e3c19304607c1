import { jsonText } from '../contract/json-text.ts';
import { createHash } from 'node:crypto';
import type { CurlTlsOptions } from './curl.ts';
import type { RunReport } from './model.ts';
import { rulesOfReport } from './_internals/check-sections.ts';
import { REPORT_CSS, REPORT_SCRIPT } from './_internals/html-assets.ts';
import { checkAnchor } from './_internals/html-anchors.ts';
import { checksSection } from './_internals/html-checks.ts';
import { coverageSection } from './_internals/html-coverage.ts';
import { html, trustedHtml, type SafeHtml } from './safe-html.ts';
import { summarySection } from './_internals/html-summary.ts';
import { runVerdict } from './run-verdict.ts';

function cspHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

/**
 * Nothing may load from anywhere, and only clockcheck's own style and script (admitted by hash) may
 * run: even if some text escaped escaping, it could not execute.
 */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${cspHash(REPORT_CSS)}; script-src ${cspHash(REPORT_SCRIPT)}`;

function resourcesSection(report: RunReport): SafeHtml {
  const rows = report.createdResources.map(
    (r) => html`<tr><td>${r.kind}</td><td class="mono">${r.id}</td><td><a class="mono" href="#${checkAnchor(r.checkId)}">${r.checkId}</a></td></tr>`,
  );
  return html`<section id="resources"><h2>Created resources <span class="muted">(${report.createdResources.length}, left on the target)</span></h2>
${rows.length > 0 ? html`<table><thead><tr><th>Kind</th><th>ID</th><th>Created by check</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">The run created nothing on the target.</p>`}
</section>`;
}

function profileSection(report: RunReport): SafeHtml {
  return html`<section id="profile"><h2>Profile</h2>
<details><summary>The resolved target profile (secrets removed)</summary><pre>${jsonText(report.profile, 2)}</pre></details>
</section>`;
}

/**
 * report.html: one self-contained page (inline style and script, no external resource) with the
 * summary, the checks with their findings, exchanges, curl and replay commands, the rule coverage
 * by spec section, the created resources and the profile. All text is escaped. The same report
 * always gives the same bytes.
 */
export function renderHtmlReport(report: RunReport, tls: CurlTlsOptions): string {
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${runVerdict(report)} · clockcheck · ${report.target.baseUrl}</title>
<style>${trustedHtml(REPORT_CSS)}</style>
</head>
<body>
<main>
${summarySection(report)}
${checksSection(report.checks, rulesOfReport(report), tls)}
${coverageSection(report.coverage, report.summary)}
${resourcesSection(report)}
${profileSection(report)}
</main>
<script>${trustedHtml(REPORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.markup;
}
