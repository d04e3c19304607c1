import { LIST_ROUTES, onTheWire, PREFIX, ROUTES, type HostileRequest } from './hostile-request.ts';

const long = (n: number) => 'a'.repeat(n);

/** Query strings no client should send: values out of range or of the wrong kind, broken escapes, repeats, injections. */
const QUERIES: readonly string[] = [
  ...['page', 'page_size'].flatMap((p) =>
    ['-1', '0', '1e309', '1e3', 'NaN', 'Infinity', '-Infinity', '1.5', '0x10', '99999999999999999999', '9007199254740993', '%20', '+1', '１', '1%00', ''].map((v) => `${p}=${v}`),
  ),
  'page_size=100000',
  'page=1&page=2',
  'page=2&page=1&page=-1',
  'page[]=1',
  'page[a]=1&page_size[]=5',
  'page=1;page_size=2',
  `page=${long(10_000)}`,
  `page_size=${'9'.repeat(10_000)}`,
  `sort=${long(10_000)}`,
  `search=${long(10_000)}`,
  `date_range=${long(10_000)}`,
  `${long(10_000)}=1`,
  'page=%zz',
  'page=%',
  'search=%',
  'search=%zz%',
  'search=%E0%A4%A',
  'search=%ED%A0%80',
  'search=%C0%AF',
  'search=%00',
  'search=%F0%9F%98%80%E2%80%AE',
  'search=日本語',
  "search=' OR 1=1 --",
  'search=%27%20OR%201%3D1%20--',
  'search=.*',
  'search=(a+)+$',
  'search=[',
  'sort=;DROP TABLE users;--',
  'sort=',
  'sort=-',
  'sort=,,,',
  'sort=__proto__',
  'sort=constructor',
  'sort=toString',
  'sort=hasOwnProperty,-__proto__',
  'sort=-id,-id,id',
  `sort=${Array(1000).fill('id').join(',')}`,
  'date_range=,',
  'date_range=a,b,c',
  'date_range=2026-13-01,2026-01-01',
  'date_range=2026-12-31,2026-01-01',
  'date_range=0000-00-00,9999-99-99',
  'date_range=-271821-04-20,275760-09-13',
  'date_range=2026-02-30,2026-02-31',
  'active=maybe',
  'active=__proto__',
  'role=toString',
  'role=0',
  'role=1e400',
  'foo=bar',
  'unknown[]=1&unknown[]=2',
  '',
  '&&&',
  '=',
  '==&=&page',
  '?page=1',
  'page=1#fragment',
  Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&'),
];

/** Path parameters that are not IDs of stored records. */
const BAD_IDS: readonly string[] = [
  'abc', '1e99', '-1', '0', '0x10', '1.0', '1.5', '+1', ' 1', '%201', '01', '99999999999999999999999', '9007199254740993',
  'NaN', 'Infinity', '%00', '%zz', '%', '%E0%A4%A', '%ED%A0%80', '%F0%9F%98%80', '__proto__', 'constructor', '..', '.', '%2e%2e',
  '1;DROP', '1%2F2', '1,2', long(10_000),
];

/** Paths that leave the routes: traversal, doubled and trailing slashes, very long ones. */
const PATHS: readonly string[] = [
  '/users/../../etc/passwd',
  `${PREFIX}/../../etc/passwd`,
  `${PREFIX}/users/../../../etc/passwd`,
  `${PREFIX}/users/%2e%2e/%2e%2e/etc/passwd`,
  `${PREFIX}/users/..%2f..%2fetc%2fpasswd`,
  `${PREFIX}/%2e%2e/%2e%2e`,
  `${PREFIX}/users/..`,
  `//api/public/users`,
  `${PREFIX}//users`,
  `${PREFIX}/users//`,
  `${PREFIX}/users///1`,
  `${PREFIX}/users/1/`,
  `${PREFIX}/users/1//`,
  `${PREFIX}/schedules/1/`,
  `${PREFIX}/webhooks/subscription/`,
  `${PREFIX}/webhooks//subscription`,
  `${PREFIX}/webhooks/subscription/unsubscribe/`,
  `${PREFIX}/USERS`,
  `${PREFIX}/users%2F1`,
  `${PREFIX}/users%00`,
  `${PREFIX}/users;jsessionid=1`,
  `${PREFIX}/users/1/extra/segments`,
  `${PREFIX}/users.json`,
  `/api/public`,
  `/api/public/`,
  `/api/`,
  `/api`,
  `/api/%`,
  `/api/%zz/users`,
  `/api/v2/../public/users`,
  `/api/__proto__/users`,
  `/api/constructor/users`,
  `/`,
  `/%`,
  `/\u00ff\u00fe`,
  `${PREFIX}/${long(8_000)}`,
  `${PREFIX}/users/${'1/'.repeat(4_000)}`,
  `${PREFIX}/${long(20_000)}`,
];

/** Authorization headers that must not authenticate, including ones past the server's header limit. */
const AUTHORIZATIONS = (token: string): ReadonlyArray<[label: string, value: string | null]> => [
  ['no Authorization', null],
  ['an empty Authorization', ''],
  ['Bearer token', `Bearer ${token}`],
  ['Basic credentials', 'Basic dXNlcjpwYXNz'],
  ['token with a trailing space', `${token} `],
  ['token upper-cased', token.toUpperCase()],
  ['token twice, comma-separated', `${token}, ${token}`],
  ['token with latin-1 bytes', `${token}\u00e9\u00ff`],
  ['a tab in the token', `${token.slice(0, 4)}\t${token.slice(4)}`],
  ['an 8 KB token', 'x'.repeat(8_000)],
  ['a 15 KB token', 'x'.repeat(15_000)],
  ['a 64 KB token (past the header limit)', 'x'.repeat(65_536)],
];

/** Host headers a URL cannot be built from. */
const HOSTS: readonly string[] = ['a b', '[::1', 'x:99999', 'localhost:abc', '\u00e9vil.test', '%zz', 'user@host', 'host/path', '', long(4_000)];

const target = (label: string, method: string, path: string, extra: Partial<HostileRequest> = {}): HostileRequest => ({
  category: 'hostile-target',
  label,
  method,
  path: onTheWire(path),
  ...extra,
});

/**
 * Hostile request targets and headers: bad query strings on every collection, bad IDs, traversal
 * and odd paths, every route with every method it does not answer, and bad Authorization and Host
 * headers on a plain GET.
 */
export function hostileTargetRequests(token: string): HostileRequest[] {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE'];
  return [
    ...[...LIST_ROUTES, '/webhooks/subscription'].flatMap((route) =>
      QUERIES.map((query) => target(`GET ${route}?${query.slice(0, 40)}`, 'GET', `${PREFIX}${route}?${query}`)),
    ),
    ...['/users', '/schedules'].flatMap((resource) =>
      BAD_IDS.flatMap((id) => [
        target(`PUT ${resource}/${id.slice(0, 40)}`, 'PUT', `${PREFIX}${resource}/${id}`, { body: '{"first_name":"a","event_pid":1}' }),
        target(`GET ${resource}/${id.slice(0, 40)}`, 'GET', `${PREFIX}${resource}/${id}`),
      ]),
    ),
    ...PATHS.flatMap((path) => ['GET', 'PUT'].map((method) => target(`${method} ${path.slice(0, 60)}`, method, path))),
    ...ROUTES.flatMap((route) =>
      methods
        .filter((method) => !route.methods.includes(method) && !(method === 'HEAD' && route.methods.includes('GET')))
        .map((method) => target(`${method} ${route.path} (not answered)`, method, `${PREFIX}${route.path}`, method === 'PATCH' ? { body: '{"first_name":"a"}' } : {})),
    ),
    ...ROUTES.flatMap((route) =>
      AUTHORIZATIONS(token).map(([label, authorization]) =>
        target(`${route.methods[0]} ${route.path} with ${label}`, route.methods[0] as string, `${PREFIX}${route.path}`, { authorization, body: route.methods[0] === 'GET' || route.methods[0] === 'DELETE' ? undefined : '{}' }),
      ),
    ),
    ...HOSTS.map((host) => target(`GET /users with Host ${JSON.stringify(host.slice(0, 40))}`, 'GET', `${PREFIX}/users`, { headers: { host } })),
  ];
}
