import { STATUS_CODES } from 'node:http';
import type { Exchange, ExchangeResponse } from '../../client/exchange.ts';
import { curlCommand, tokenVariableOf, type CurlTlsOptions } from '../curl.ts';
import { readableBody } from './body-text.ts';
import { formatDuration } from '../../duration.ts';
import { pathOf } from './path-of.ts';
import { exchangeAnchor } from './html-anchors.ts';
import { html, type SafeHtml } from '../safe-html.ts';

/** `201 Created`, or the bare number for a status HTTP does not name. */
export function statusLine(status: number): string {
  const phrase = STATUS_CODES[status];
  return phrase ? `${status} ${phrase}` : String(status);
}

function statusClass(status: number): string {
  if (status >= 500) return 'http-5xx';
  if (status >= 400) return 'http-4xx';
  return 'http-2xx';
}

function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\n`)
    .join('');
}

function responseText(response: ExchangeResponse): string {
  const body = response.body === '' ? '' : `\n${readableBody(response.body)}`;
  return `HTTP ${statusLine(response.status)}\n${headerLines(response.headers)}${body}`;
}

function truncationNote(response: ExchangeResponse): SafeHtml | undefined {
  if (!response.bodyTruncated) return undefined;
  const kept = Buffer.byteLength(response.body);
  return html`<p class="muted">Body truncated by the outcome: ${kept} of ${response.bodyBytes} bytes kept.</p>`;
}

/** What came back (or went wrong): `201 Created`, `201 Created, then BODY_TIMEOUT`, `CONNECTION_RESET`, `no response`. */
function outcomeOf(exchange: Exchange): SafeHtml {
  const { response, error } = exchange;
  return html`${response ? html`<span class="http-status ${statusClass(response.status)}">${statusLine(response.status)}</span>` : ''}${
    response && error ? ', then ' : ''
  }${error ? html`<span class="http-status http-error">${error.code}</span>` : ''}${!response && !error ? 'no response' : ''}`;
}

/**
 * The one-line label of an exchange: `#12 POST /api/public/schedules → 201 Created · 34 ms`; one
 * the sink received, `#12 received POST /hook ← from the target · answered 200 OK`.
 */
function exchangeLabel(exchange: Exchange): SafeHtml {
  const call = html`<code>${exchange.request.method} ${pathOf(exchange.request.url)}</code>`;
  if (exchange.direction === 'inbound') {
    return html`<span class="mono">#${exchange.id}</span> <span class="received-tag">received</span> ${call} ← from the target <span class="muted">·</span> answered ${outcomeOf(exchange)}`;
  }
  return html`<span class="mono">#${exchange.id}</span> ${call} → ${outcomeOf(exchange)} <span class="muted">· ${formatDuration(exchange.durationMs)}</span>`;
}

/** How an exchange is shown: opened to its request and response, and the rules of the findings that point at it. */
export interface ExchangeView {
  readonly open: boolean;
  /** The rule IDs of the findings that name this exchange (none: it is not evidence). */
  readonly evidence: readonly string[];
}

/** `finding: SCH-DATE-FORMAT, ERR-VALIDATION-STATUS` on an exchange a finding points at. */
function evidenceTag(evidence: readonly string[]): SafeHtml | '' {
  return evidence.length === 0 ? '' : html` <span class="evidence-tag" data-testid="evidence">finding: ${evidence.join(', ')}</span>`;
}

/**
 * One exchange: a collapsible block with the request as sent and the response as received (or the
 * transport error), and under it, always in view, a curl command that sends the request again. An
 * exchange a finding points at is marked with the finding's rules. A webhook delivery the sink
 * received (`direction: inbound`) shows the target's request and the sink's answer, and no curl:
 * it would send to the sink, not replay anything clockcheck sent.
 */
export function exchangeBlock(checkId: string, exchange: Exchange, view: ExchangeView, tls: CurlTlsOptions): SafeHtml {
  const { request } = exchange;
  const inbound = exchange.direction === 'inbound';
  const marked = view.evidence.length > 0;
  return html`<div class="exchange-step${marked ? ' evidence' : ''}" data-exchange-id="${exchange.id}"${marked ? html` data-evidence="${view.evidence.join(' ')}"` : ''}>
<details class="exchange${inbound ? ' inbound' : ''}" id="${exchangeAnchor(checkId, exchange.id)}"${view.open ? html` open` : ''}>
<summary>${exchangeLabel(exchange)}${evidenceTag(view.evidence)}</summary>
${httpPair(exchange)}
</details>
${inbound ? '' : html`<pre class="command" data-testid="curl" title="curl command that sends #${exchange.id} again">${curlCommand(request, tls, tokenVariableOf(exchange))}</pre>`}
</div>`;
}

/** The request as sent and the response as received, side by side. */
function httpPair(exchange: Exchange): SafeHtml {
  const { request, response, error } = exchange;
  const inbound = exchange.direction === 'inbound';
  const requestBody = request.body === undefined ? '' : `\n${readableBody(request.body)}`;
  return html`<div class="exchange-body">
<div class="http-pair">
<div><h4>${inbound ? html`Delivery <span class="muted">received ${exchange.startedAt}</span>` : html`Request <span class="muted">sent ${exchange.startedAt}</span>`}</h4>
<pre>${`${request.method} ${request.url}\n${headerLines(request.headers)}${requestBody}`}</pre></div>
<div><h4>${inbound ? "Sink's answer" : 'Response'}</h4>
${response ? html`<pre>${responseText(response)}</pre>${truncationNote(response)}` : ''}
${error ? html`<p class="reason status-errored">Transport error <b>${error.code}</b>${response ? ' after the response head' : ''}: ${error.message}</p>` : ''}
${!response && !error ? html`<p class="muted">No response was recorded.</p>` : ''}</div>
</div>
</div>`;
}
