import { Agent, request } from 'undici';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/reference/server.ts';

/** What a test sees of one exchange. */
export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly json: any;
}

export interface CallOptions {
  readonly body?: unknown;
  /** Raw body text (for malformed JSON); wins over `body`. */
  readonly rawBody?: string;
  /** The Authorization header; the server's token by default, null to send none. */
  readonly authorization?: string | null;
  /** Path prefix; `/api/public` by default. */
  readonly prefix?: string;
  /** The Content-Type header; `application/json` by default. */
  readonly contentType?: string;
}

/** A started reference server and a client for it that trusts its CA. */
export interface TestServer {
  readonly server: ReferenceServer;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

/** Starts a reference server for a test (limit off unless given) with a client that trusts its CA. */
export async function startTestServer(options: ReferenceServerOptions = {}): Promise<TestServer> {
  const server = await startReferenceServer({ rateLimit: null, ...options });
  const agent = new Agent({ connect: { ca: server.tls.caPem }, connections: 64 });
  return {
    server,
    async call(method, path, callOptions = {}) {
      const { body, rawBody, authorization = server.token, prefix = '/api/public', contentType = 'application/json' } = callOptions;
      const response = await request(`${server.origin}${prefix}${path}`, {
        method: method as 'GET',
        dispatcher: agent,
        headers: {
          accept: 'application/json',
          'content-type': contentType,
          ...(authorization === null ? {} : { authorization }),
        },
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await response.body.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, headers: response.headers, text, json };
    },
    async close() {
      await agent.close();
      await server.close();
    },
  };
}

/** Valid baseline payloads built from the seed data; tests change exactly one thing from these. */
export function baselines(server: ReferenceServer) {
  const seed = server.seed;
  let counter = 0;
  const unique = () => `${Date.now()}-${++counter}`;
  return {
    user: () => ({ first_name: 'Test', last_name: 'User', email: `user-${unique()}@clockcheck.test`, password: 'Valid-pass1' }),
    schedule: () => ({
      assigned_by: seed.activeUserIds.admin,
      title: 'Baseline shift',
      repeat: false,
      all_day: false,
      color: 'blue',
      user_ids: [seed.activeUserIds.employee],
      start_date: '12/01/2026',
      end_date: '12/01/2026',
      start_time: '09:00',
      end_time: '17:00',
    }),
    /** A winter timesheet in the company timezone (America/Chicago, -06:00 in December). */
    timesheet: () => ({ user_id: seed.activeUserIds.employee, start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T17:00:00-06:00' }),
    /** A break inside the first seeded timesheet (2026-10-01 09:00-17:00 -05:00). */
    break: () => ({ timesheet_id: seed.timesheetIds[0] as number, break_rule_id: seed.breakRuleIds[0] as number, start: '2026-10-01T13:00:00-05:00', end: '2026-10-01T13:20:00-05:00' }),
  };
}

/** The rule IDs of a 422 reply's `violations` (empty when there are none). */
export function violationRules(reply: Reply): Array<string | null> {
  const violations: unknown = reply.json?.violations;
  return Array.isArray(violations) ? violations.map((v: { rule: string | null }) => v.rule) : [];
}

/** The `rule@field` pairs of a 422 reply's `violations`. */
export function violationPairs(reply: Reply): string[] {
  const violations: unknown = reply.json?.violations;
  return Array.isArray(violations) ? violations.map((v: { rule: string | null; field: string }) => `${v.rule}@${v.field}`) : [];
}

/** Follows an absolute URL the server returned (e.g. a pagination link) with the test client; it must be on the server's origin. */
export function follow(client: TestServer, url: string, options: Omit<CallOptions, 'prefix'> = {}): Promise<Reply> {
  const { origin } = client.server;
  if (!url.startsWith(`${origin}/`)) throw new Error(`${url} is not on the server's origin ${origin}`);
  return client.call('GET', url.slice(origin.length), { ...options, prefix: '' });
}
