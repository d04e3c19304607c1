import type { TargetRequest } from '../client/client.ts';
import type { ScenarioRequest } from './format.ts';
import type { ScenarioRun } from './scenario-run.ts';

/** A body or query a pair's variant puts in place of the request's own. */
export interface RequestOverride {
  readonly json?: unknown;
  readonly query?: Record<string, unknown>;
}

/** A scenario's request as the client sends it: templates rendered, the query flattened, under the API prefix or another (`prefix`). */
export function toTargetRequest(run: ScenarioRun, request: ScenarioRequest, override?: RequestOverride): TargetRequest {
  const rendered = run.render({ path: request.path, prefix: request.prefix, query: request.query, headers: request.headers, raw_body: request.raw_body, auth: request.auth }) as {
    path: string;
    prefix?: string;
    query?: Record<string, string | number | boolean>;
    headers?: Record<string, string>;
    raw_body?: string;
    auth: ScenarioRequest['auth'];
  };
  const json = override?.json !== undefined ? override.json : request.json === undefined ? undefined : run.render(request.json);
  const query = { ...rendered.query, ...(override?.query as Record<string, string | number | boolean> | undefined) };
  const parts = {
    method: request.method,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])),
    headers: rendered.headers,
    json,
    rawBody: rendered.raw_body,
    auth: rendered.auth,
  };
  return rendered.prefix !== undefined ? { ...parts, url: `${run.deps.origin}${rendered.prefix}${rendered.path}` } : { ...parts, path: rendered.path };
}
