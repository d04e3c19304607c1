import type { RuleCoverage } from '../model.ts';
import { checkAnchor, ruleAnchor } from './html-anchors.ts';
import { statusBadge } from './html-checks.ts';
import { html, type SafeHtml } from '../safe-html.ts';
import { groupBySection, primarySection } from './spec-sections.ts';

function coverageRow(entry: RuleCoverage): SafeHtml {
  const { rule } = entry;
  const checks = entry.checkIds.map((id, i) => html`${i > 0 ? html`<br>` : ''}<a class="mono" href="#${checkAnchor(id)}">${id}</a>`);
  return html`<tr id="${ruleAnchor(rule.id)}" class="${entry.outcome === 'uncovered' ? 'uncovered' : 'covered'}" data-rule-id="${rule.id}">
<td><span class="rule-id mono">${rule.id}</span><div class="statement">${rule.statement}</div></td>
<td class="nowrap">§${rule.section}</td><td>${rule.basis}</td><td>${statusBadge(entry.outcome)}</td>
<td>${entry.checkIds.length > 0 ? checks : html`<span class="muted">no check</span>`}</td>
</tr>`;
}

/** Every rule of the catalog, grouped by its primary spec section; uncovered rules are hatched. */
export function coverageSection(coverage: readonly RuleCoverage[]): SafeHtml {
  const groups = groupBySection(coverage, (entry) => primarySection(entry.rule));
  const covered = coverage.filter((c) => c.outcome !== 'uncovered').length;
  return html`<section id="coverage" data-testid="coverage"><h2>Rule coverage <span class="muted">(${covered} of ${coverage.length} rules covered)</span></h2>
<table>
<thead><tr><th>Rule</th><th>Section</th><th>Basis</th><th>Outcome</th><th>Checks</th></tr></thead>
${groups.map((group) => {
  const groupCovered = group.items.filter((c) => c.outcome !== 'uncovered').length;
  return html`<tbody><tr class="section-row"><th colspan="5">${group.label}<span class="muted">${groupCovered}/${group.items.length} covered</span></th></tr>${group.items.map(coverageRow)}</tbody>`;
})}
</table>
</section>`;
}
