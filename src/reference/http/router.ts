import type { ApiResponse } from './api-response.ts';
import type { CompanyScope } from '../companies/company-scope.ts';

/** One request as a handler sees it: the route parameters, the query, the parsed JSON body, its company. */
export interface ApiRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** The request URL's origin and path without query, for pagination links. */
  readonly origin: string;
  readonly path: string;
  /** The company the request's token belongs to: what the handler reads and writes within. */
  readonly company: CompanyScope;
}

export type Handler = (request: ApiRequest) => ApiResponse;

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly handler: Handler; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/** A small method + path router. Paths are written like `/users/:userId`; parameters match digits only. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, path: string, handler: Handler): this {
    const names: string[] = [];
    const source = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), names, handler });
    return this;
  }

  /** Finds the route for a method and a path relative to the API prefix. HEAD matches GET routes. */
  match(method: string, path: string): RouteMatch {
    const lookup = method === 'HEAD' ? 'GET' : method;
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      if (route.method !== lookup) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] as string)));
      } catch {
        return { kind: 'not-found' }; // a malformed percent-escape names no resource
      }
      return { kind: 'found', handler: route.handler, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}
