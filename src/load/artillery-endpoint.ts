import { UsageError } from '../errors.ts';
import type { ArtilleryPeriod } from './artillery-report.ts';
import { parseEndpoint, type LoadEndpoint } from './load-options.ts';

/** Where Artillery's metrics-by-endpoint plugin puts its metrics (its default `metricsNamespace`). */
const BY_ENDPOINT_PREFIX = 'plugins.metrics-by-endpoint.';

/**
 * The name `load --export artillery` gives its one request, which the metrics-by-endpoint plugin
 * (`useOnlyRequestNames: true`) puts in every metric of it: the endpoint as `--endpoint` takes it,
 * `GET:/breaks?page_size=100`.
 */
export function requestName(endpoint: LoadEndpoint): string {
  return `${endpoint.method}:${endpoint.path}`;
}

/**
 * The endpoints the report's metrics-by-endpoint metrics name: `<name>.codes.<status>`,
 * `<name>.errors.<code>` and `response_time.<name>`. A name is a request's name (`GET:/breaks`, as
 * `load --export artillery` names it), or the path it called when the request had none.
 */
export function endpointNames(aggregate: ArtilleryPeriod): string[] {
  const names = new Set<string>();
  for (const name of Object.keys(aggregate.counters)) {
    if (!name.startsWith(BY_ENDPOINT_PREFIX)) continue;
    const match = /^(.+)\.(?:codes|errors)\.[^.]+$/.exec(name.slice(BY_ENDPOINT_PREFIX.length));
    if (match?.[1]) names.add(match[1]);
  }
  for (const name of Object.keys(aggregate.summaries)) {
    if (name.startsWith(`${BY_ENDPOINT_PREFIX}response_time.`)) names.add(name.slice(`${BY_ENDPOINT_PREFIX}response_time.`.length));
  }
  return [...names].sort();
}

/** A name as an endpoint: `GET:/breaks` read as `--endpoint` reads it; a path under the API prefix as a GET of it; else null. */
function endpointOfName(name: string, apiPrefix: string): LoadEndpoint | null {
  if (/^[A-Z]+:\//.test(name)) {
    try {
      return parseEndpoint(name);
    } catch {
      return null;
    }
  }
  const path = name.split(' ')[0] ?? '';
  return path.startsWith(`${apiPrefix}/`) ? { method: 'GET', path: path.slice(apiPrefix.length) } : null;
}

const withoutQuery = (path: string) => path.split('?')[0];

/**
 * The one endpoint an Artillery run called, from its report, checked against `--endpoint` when given.
 * A report of `load --export artillery`'s script names it; another script's report may not, and then
 * `--endpoint` says it.
 * @throws UsageError when the report names several endpoints, names another than `--endpoint`, or
 *   names none and no `--endpoint` was given.
 */
export function artilleryEndpoint(aggregate: ArtilleryPeriod, given: LoadEndpoint | undefined, apiPrefix: string, file: string): LoadEndpoint {
  const names = endpointNames(aggregate);
  if (names.length > 1) {
    throw new UsageError(`load --from-artillery: ${file} holds calls to ${names.length} endpoints (${names.join(', ')}); a load report is of one endpoint, as load --export artillery writes its script`);
  }
  const named = names[0] === undefined ? null : endpointOfName(names[0], apiPrefix);
  if (given === undefined) {
    if (named !== null) return named;
    const seen = names[0] === undefined ? 'names no endpoint (its script did not use the metrics-by-endpoint plugin)' : `names "${names[0]}", not an endpoint under ${apiPrefix}`;
    throw new UsageError(`load --from-artillery: ${file} ${seen}: give --endpoint METHOD:/path`);
  }
  // A request without a name is known by its path, without the query when the plugin strips it (its default).
  const same = named === null || (/^[A-Z]+:\//.test(names[0] ?? '') ? named.method === given.method && named.path === given.path : withoutQuery(named.path) === withoutQuery(given.path));
  if (!same) throw new UsageError(`load --from-artillery: ${file} holds calls to ${names[0]}, not to --endpoint ${requestName(given)}`);
  return given;
}
