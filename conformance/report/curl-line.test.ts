import { describe, expect, it } from 'vitest';
import { curlLine } from './curl-line.ts';

describe('curlLine', () => {
  it('sends the content a request carried as it was, its Content-Type and Content-Length among the headers', () => {
    const line = curlLine({ method: 'DELETE', url: 'http://127.0.0.1:4010/api/admin/service-account/1/token/x', headers: { authorization: '$KEY_1', 'content-type': 'application/json', 'content-length': '2' }, body: '{}' }, 'full');
    expect(line).toBe(`curl -i --path-as-is --globoff -X DELETE -H "authorization: $KEY_1" -H "content-type: application/json" -H "content-length: 2" --data-raw '{}' 'http://127.0.0.1:4010/api/admin/service-account/1/token/x'`);
  });

  it('puts a request target that names no path on the request line as sent (OPTIONS *, CONNECT host:port)', () => {
    expect(curlLine({ method: 'OPTIONS', url: 'http://127.0.0.1:4010/api/admin/auth/oidc/settings', headers: {}, target: '*' }, 'none')).toBe(`curl -i --path-as-is --globoff -X OPTIONS --request-target '*' 'http://127.0.0.1:4010/api/admin/auth/oidc/settings'`);
    expect(curlLine({ method: 'CONNECT', url: 'http://127.0.0.1:4010/x', headers: { authorization: '$KEY_1' }, target: '127.0.0.1:4010' }, 'full')).toContain(`-X CONNECT --request-target '127.0.0.1:4010' -H "authorization: $KEY_1"`);
  });

  it('sends no content for a request without any', () => {
    expect(curlLine({ method: 'GET', url: 'http://127.0.0.1:4010/x', headers: {} }, 'none')).not.toContain('--data');
  });
});
