import type { RuleCoverage, RunSummary } from '../model.ts';
import { isJudged } from '../coverage.ts';
import { rulesJudgedText } from '../run-verdict.ts';
import { checkAnchor, ruleAnchor } from './html-anchors.ts';
import { statusBadge } from './html-checks.ts';
import { html, type SafeHtml } from '../safe-html.ts';
import { groupBySection, primarySection } from './spec-sections.ts';

function coverageRow(entry: RuleCoverage): SafeHtml {
  const { rule } = entry;
  const checks = entry.checkIds.map((id, i) => html`${i > 0 ? html`<br>` : ''}<a class="mono" href="#${checkAnchor(id)}">${id}</a>`);
  return html`<tr id="${ruleAnchor(rule.id)}" class="${isJudged(entry.outcome) ? 'covered' : 'uncovered'}" data-rule-id="${rule.id}">
<td><span class="rule-id mono">${rule.id}</span><div class="statement">${rule.statement}</div></td>
<td class="nowrap">§${rule.section}</td><td>${rule.basis}</td><td>${statusBadge(entry.outcome)}</td>
<td>${entry.checkIds.length > 0 ? checks : html`<span class="muted">no check</span>`}</td>
</tr>`;
}

/**
 * Every rule of the catalog, grouped by its primary spec section. A judged rule (a check passed,
 * failed or waived on it) is covered; the others are hatched, with why (errored, not-run, skipped,
 * or no check). The heading states the summary's count, as the badge at the top does.
 */
export function coverageSection(coverage: readonly RuleCoverage[], summary: RunSummary): SafeHtml {
  const groups = groupBySection(coverage, (entry) => primarySection(entry.rule));
  return html`<section id="coverage" data-testid="coverage"><h2>Rule coverage <span class="muted" data-testid="coverage-count">(${rulesJudgedText(summary)})</span></h2>
<table>
<thead><tr><th>Rule</th><th>Section</th><th>Basis</th><th>Outcome</th><th>Checks</th></tr></thead>
${groups.map((group) => {
  const groupCovered = group.items.filter((c) => isJudged(c.outcome)).length;
  return html`<tbody><tr class="section-row"><th colspan="5">${group.label}<span class="muted">${groupCovered}/${group.items.length} judged</span></th></tr>${group.items.map(coverageRow)}</tbody>`;
})}
</table>
</section>`;
}
