import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, tokenVariableOf } from '../../src/report/curl.ts';
import type { ExchangeRequest } from '../../src/client/exchange.ts';

const TOKEN_IN_SHELL = 'token-from-the-environment';

/**
 * Runs the command in a POSIX shell where `curl` is a function printing its arguments, one per
 * NUL-terminated field: what curl would receive, after the shell's quoting and expansion.
 */
function argvOf(command: string): string[] {
  const script = `curl() { for arg in "$@"; do printf '%s\\0' "$arg"; done; }\n${command}`;
  const out = execFileSync('/bin/sh', ['-c', script], { env: { CLOCKCHECK_TOKEN: TOKEN_IN_SHELL, PATH: process.env.PATH }, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

const base: ExchangeRequest = {
  method: 'POST',
  url: 'https://127.0.0.1:8443/api/public/schedules',
  headers: { authorization: '[REDACTED]', 'content-type': 'application/json' },
  body: '{"title":"O\'Brien\'s shift"}',
};

describe('curlCommand', () => {
  it('passes a body with single quotes, double quotes and shell characters through unchanged', () => {
    const body = `{"title":"O'Brien's \\"night\\" $HOME \`id\` $(id) !x ; & | *","note":"line1\nline2"}`;
    const argv = argvOf(curlCommand({ ...base, body }, {}));
    expect(argv.slice(-2)).toEqual(['--data-raw', body]);
  });

  it('reads the token from $CLOCKCHECK_TOKEN in double quotes, never writing the recorded value', () => {
    const command = curlCommand(base, {});
    expect(command).toContain(`-H "authorization: $CLOCKCHECK_TOKEN"`);
    expect(command).not.toContain('[REDACTED]');
    expect(argvOf(command)).toContain(`authorization: ${TOKEN_IN_SHELL}`);
  });

  it("reads the second company's token from $CLOCKCHECK_SECOND_TOKEN for a request sent with it (issue 49)", () => {
    expect(tokenVariableOf({ company: 'second' })).toBe('CLOCKCHECK_SECOND_TOKEN');
    expect(tokenVariableOf({})).toBe('CLOCKCHECK_TOKEN');
    const command = curlCommand(base, {}, tokenVariableOf({ company: 'second' }));
    expect(command).toContain(`-H "authorization: $CLOCKCHECK_SECOND_TOKEN"`);
    expect(command).not.toContain('$CLOCKCHECK_TOKEN"');
  });

  it('keeps a scheme around a redacted token and an unredacted (deliberately wrong) token as recorded', () => {
    const bearer = argvOf(curlCommand({ ...base, headers: { authorization: "Bearer '[REDACTED]' $x" } }, {}));
    expect(bearer).toContain(`authorization: Bearer '${TOKEN_IN_SHELL}' $x`);
    const wrong = argvOf(curlCommand({ ...base, headers: { authorization: 'not-a-token' } }, {}));
    expect(wrong).toContain('authorization: not-a-token');
  });

  it('keeps a URL with a query string as one argument, with --globoff when it has brackets', () => {
    const url = "https://127.0.0.1:8443/api/public/users?page=2&sort=-firstName,lastName&search=O'Hara";
    const plain = curlCommand({ method: 'GET', url, headers: {} }, {});
    expect(argvOf(plain)).toEqual(['-sS', '-i', url]);
    const bracketed = `${url}&ids[]=1`;
    expect(argvOf(curlCommand({ method: 'GET', url: bracketed, headers: {} }, {}))).toEqual(['-sS', '-i', '--globoff', bracketed]);
  });

  it('sends HEAD with -I and no -X', () => {
    const argv = argvOf(curlCommand({ method: 'HEAD', url: 'https://h.test/api/public/users', headers: {} }, {}));
    expect(argv).toEqual(['-sS', '-I', 'https://h.test/api/public/users']);
  });

  it('sends a GET with a body as -X GET --data-raw', () => {
    const argv = argvOf(curlCommand({ method: 'GET', url: 'https://h.test/api/public/breaks', headers: {}, body: '{"ids":[1,2]}' }, {}));
    expect(argv).toEqual(['-sS', '-i', '-X', 'GET', 'https://h.test/api/public/breaks', '--data-raw', '{"ids":[1,2]}']);
  });

  it('names the method for PUT and DELETE, and relies on curl inferring POST from a body', () => {
    expect(argvOf(curlCommand({ ...base, method: 'PUT' }, {}))).toEqual(expect.arrayContaining(['-X', 'PUT']));
    expect(argvOf(curlCommand({ method: 'DELETE', url: 'https://h.test/x', headers: {} }, {}))).toEqual(['-sS', '-i', '-X', 'DELETE', 'https://h.test/x']);
    expect(argvOf(curlCommand(base, {}))).not.toContain('-X');
  });

  it('drops hop-by-hop headers, content-length and headers named by Connection', () => {
    const headers = { connection: 'keep-alive, x-hop', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', 'content-length': '27', 'x-hop': '1', accept: 'application/json' };
    const argv = argvOf(curlCommand({ ...base, headers }, {}));
    expect(argv.filter((_, i) => argv[i - 1] === '-H')).toEqual(['accept: application/json']);
  });

  it('sends an empty header value the way curl needs it', () => {
    expect(argvOf(curlCommand({ ...base, headers: { 'x-empty': '' } }, {}))).toContain('x-empty;');
  });

  it('trusts a CA file with --cacert (quoted), or skips verification with -k', () => {
    expect(argvOf(curlCommand(base, { caFile: "/tmp/my ca's/ca.pem" }))).toEqual(expect.arrayContaining(['--cacert', "/tmp/my ca's/ca.pem"]));
    expect(argvOf(curlCommand(base, { insecure: true }))).toContain('-k');
    expect(argvOf(curlCommand(base, { caFile: '/ca.pem', insecure: true }))).not.toContain('-k');
  });

  it('writes one option per line, joined by backslash-newline continuations', () => {
    expect(curlCommand(base, {})).toBe(
      [`curl -sS -i`, `'https://127.0.0.1:8443/api/public/schedules'`, `-H "authorization: $CLOCKCHECK_TOKEN"`, `-H 'content-type: application/json'`, `--data-raw '{"title":"O'\\''Brien'\\''s shift"}'`].join(
        ' \\\n  ',
      ),
    );
  });
});
