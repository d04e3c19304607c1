import type { CheckChange, ReportDiff } from './report-diff.ts';

/** The verdict line both renderings end with. */
export function diffVerdict(diff: ReportDiff): string {
  const count = (kind: CheckChange['kind']) => diff.checks.filter((c) => c.kind === kind).length;
  const regressions = diff.checks.filter((c) => c.kind === 'new failure').length + diff.checks.filter((c) => c.kind === 'still failing' && c.newRules.length > 0).length;
  const tally = `${count('new failure')} new failure(s), ${count('still failing')} still failing, ${count('fixed')} fixed, ${count('not run')} no longer run`;
  return diff.regressed ? `REGRESSED  ${tally} (${regressions} regression(s))` : `NO REGRESSION  ${tally}`;
}

function statusPair(c: CheckChange): string {
  return `${c.old ?? 'absent'} -> ${c.new ?? 'absent'}`;
}

function rulesCell(c: CheckChange): string {
  const rules = c.rules.join(', ');
  return c.newRules.length > 0 ? `${rules} (new: ${c.newRules.join(', ')})` : rules;
}

function sideLine(label: string, side: ReportDiff['old']): string {
  return `${label} ${side.runId} (${side.startedAt}): ${side.failed} failed, ${side.errored} errored, ${side.notRun} not run, ${side.rulesCovered} of ${side.rulesTotal} rules judged`;
}

/** The terminal rendering: plain text, aligned columns, no colour. */
export function renderDiffText(diff: ReportDiff): string {
  const lines = [sideLine('OLD', diff.old), sideLine('NEW', diff.new), ...diff.notes.map((n) => `Note: ${n}`), ''];
  for (const change of diff.identity) lines.push(`${change.what} changed: ${change.old} -> ${change.new}`);
  if (diff.identity.length > 0) lines.push('');
  if (diff.checks.length === 0) lines.push('No check failed in either report.');
  else {
    const kindWidth = Math.max(...diff.checks.map((c) => c.kind.length));
    const idWidth = Math.max(...diff.checks.map((c) => c.checkId.length));
    const pairWidth = Math.max(...diff.checks.map((c) => statusPair(c).length));
    for (const c of diff.checks) {
      lines.push(`${c.kind.toUpperCase().padEnd(kindWidth)}  ${c.checkId.padEnd(idWidth)}  ${statusPair(c).padEnd(pairWidth)}  ${rulesCell(c)}${c.reason ? `  (${c.reason})` : ''}`);
    }
  }
  lines.push('');
  if (diff.rulesNewlyCovered.length > 0) lines.push(`Rules newly covered: ${diff.rulesNewlyCovered.join(', ')}`);
  if (diff.rulesNewlyUncovered.length > 0) lines.push(`Rules no longer covered: ${diff.rulesNewlyUncovered.join(', ')}`);
  lines.push(diffVerdict(diff));
  return lines.join('\n');
}

/** Escapes what would break a markdown table cell. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A pull-request comment: a heading with the verdict, a table of the changed checks, coverage and identity changes. */
export function renderDiffMarkdown(diff: ReportDiff): string {
  const lines = [`### clockcheck diff: ${diff.regressed ? 'regressed' : 'no regression'}`, ''];
  lines.push(`| | run | failed | errored | not run | rules judged |`, `|---|---|---|---|---|---|`);
  for (const [label, side] of [['old', diff.old], ['new', diff.new]] as const) {
    lines.push(`| ${label} | \`${cell(side.runId)}\` | ${side.failed} | ${side.errored} | ${side.notRun} | ${side.rulesCovered} of ${side.rulesTotal} |`);
  }
  lines.push('', ...diff.notes.map((n) => `> ${cell(n)}`), ...(diff.notes.length > 0 ? [''] : []));
  if (diff.checks.length === 0) lines.push('No check failed in either report.');
  else {
    lines.push('| change | check | status | rules |', '|---|---|---|---|');
    for (const c of diff.checks) {
      lines.push(`| ${c.kind === 'new failure' || c.newRules.length > 0 ? `**${c.kind}**` : c.kind} | \`${cell(c.checkId)}\` ${cell(c.title)} | ${statusPair(c)} | ${cell(rulesCell(c))} |`);
    }
  }
  lines.push('');
  if (diff.rulesNewlyCovered.length > 0) lines.push(`Rules newly covered: ${diff.rulesNewlyCovered.map((r) => `\`${r}\``).join(', ')}`, '');
  if (diff.rulesNewlyUncovered.length > 0) lines.push(`Rules no longer covered: ${diff.rulesNewlyUncovered.map((r) => `\`${r}\``).join(', ')}`, '');
  for (const change of diff.identity) lines.push(`- ${change.what} changed: \`${cell(change.old)}\` → \`${cell(change.new)}\``);
  if (diff.identity.length > 0) lines.push('');
  lines.push(`\`${diffVerdict(diff)}\``);
  return lines.join('\n');
}
