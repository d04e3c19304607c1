/** Element IDs of report.html, so links between sections agree with their targets. */

/** An ID attribute may hold anything but whitespace; anything else odd is replaced too. */
function idSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_./:-]/g, '_');
}

export function checkAnchor(checkId: string): string {
  return `check-${idSafe(checkId)}`;
}

export function ruleAnchor(ruleId: string): string {
  return `rule-${idSafe(ruleId)}`;
}

/** Exchange IDs are unique in a run, but two checks may show the same exchange. */
export function exchangeAnchor(checkId: string, exchangeId: number): string {
  return `${checkAnchor(checkId)}-exchange-${exchangeId}`;
}
