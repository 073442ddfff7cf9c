import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, mockClient } from '../../../test/http.ts';
import { rawRequest } from '../../../test/raw-http.ts';
import { loadContract, type Contract } from '../../contract/index.ts';
import { DEFAULT_FIXTURES_FILE } from '../index.ts';

let contract: Contract;
let client: Awaited<ReturnType<typeof mockClient>>;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  client = await mockClient();
});
afterAll(() => client?.close());

/** A GET as a browser sends it; bodies here are HTML, scripts and YAML as well as JSON. */
async function get(base: string, path: string, method = 'GET') {
  const response = await fetch(base + path, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** GET with a Host header of our choosing, as a browser behind another name would send it. */
function getWithHost(url: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body));
    });
    req.on('error', reject).end();
  });
}

describe('the served spec', () => {
  it('serves /openapi.json: the spec as authored, with servers naming this mock', async () => {
    const answer = await get(client.mock.url, '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json().servers).toEqual([{ url: client.mock.url, description: expect.any(String) }]);
    expect({ ...answer.json(), servers: undefined }).toEqual({ ...contract.rawDocument, servers: undefined });
  });

  it('serves /openapi.yaml: the same document in YAML', async () => {
    const [yaml, json] = await Promise.all([get(client.mock.url, '/openapi.yaml'), get(client.mock.url, '/openapi.json')]);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
    expect(parse(yaml.text)).toEqual(json.json());
  });

  it('points servers at the host the client used, so try-it works behind another name', async () => {
    const body = JSON.parse(await getWithHost(`${client.mock.url}/openapi.json`, `localhost:${client.mock.port}`));
    expect(body.servers[0].url).toBe(`http://localhost:${client.mock.port}`);
  });

  it('falls back to the relative server "/" (this document\'s own server) given a Host header that names no host', async () => {
    for (const host of ['a b', 'x/y:1', 'ex"ample', '<a>:80']) {
      const body = JSON.parse(await getWithHost(`${client.mock.url}/openapi.json`, host));
      expect(body.servers[0].url, String(host)).toBe('/');
    }
  });

  it('lets a page on another origin fetch the spec (CORS covers it), and keeps it out of the journal', async () => {
    const response = await fetch(`${client.mock.url}/openapi.json`, { headers: { origin: 'http://localhost:8000' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:8000');
    const journal = (await (await fetch(`${client.mock.url}/__mock/journal`)).json()) as { entries: { method: string; path: string }[] };
    expect(journal.entries.filter((e) => e.method === 'GET' && /^\/(openapi\.|docs)/.test(e.path))).toEqual([]);
  });

  it('leaves other methods on the spec paths to the mock, which refuses them as it refuses any unknown route', async () => {
    const answer = await get(client.mock.url, '/openapi.json', 'POST');
    expect(answer.status).toBe(404);
    expect(answer.json().name).toBe('NotFoundError');
  });
});

describe('the /docs reference', () => {
  it('serves a page that loads Swagger UI from this mock only, under a policy that allows nothing else', async () => {
    const page = await get(client.mock.url, '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((source) => !source.startsWith('data:'));
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      expect(source).toMatch(/^\/docs\//);
      const asset = await get(client.mock.url, source);
      expect(asset.status, source).toBe(200);
    }
  });

  it('pre-authorizes the spec\'s apiKey scheme with the public default admin key', async () => {
    const init = await get(client.mock.url, '/docs/init.js');
    const scheme = Object.keys((contract.document.components as { securitySchemes: object }).securitySchemes)[0]!;
    expect(init.text).toContain(`ui.preauthorizeApiKey(${JSON.stringify(scheme)}, ${JSON.stringify(ADMIN_KEY)})`);
  });

  it('holds the pre-filled key back from a page addressed by a name not allowed (DNS rebinding), saying why in its console', async () => {
    const rebound = await getWithHost(`${client.mock.url}/docs/init.js`, `evil.example:${client.mock.port}`);
    expect(rebound).not.toContain(ADMIN_KEY);
    expect(rebound).toContain('SwaggerUIBundle(');
    expect(rebound).toMatch(/console\.warn\(.*--allowed-host evil\.example/);
    expect(await getWithHost(`${client.mock.url}/docs/init.js`, `localhost:${client.mock.port}`)).toContain(ADMIN_KEY);
  });

  it('serves the spec and the reference to an absolute-form target too, and holds the key back when that target names another host', async () => {
    const { port } = client.mock;
    const raw = (target: string, host = 'localhost') => rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
    for (const path of ['/openapi.json', '/openapi.yaml', '/docs', '/docs/init.js', '/docs/swagger-ui.css']) expect([path, (await raw(`http://localhost:${port}${path}`))!.status]).toEqual([path, 200]);
    expect((await raw(`http://localhost:${port}/docs/init.js`))!.body).toContain(ADMIN_KEY);
    const rebound = (await raw('http://evil.example/docs/init.js'))!;
    expect(rebound.status).toBe(200);
    expect(rebound.body).not.toContain(ADMIN_KEY);
    expect(rebound.body).toContain('--allowed-host evil.example');
  });

  it('pre-fills no key when the state comes from a fixtures file of your own: its keys are not public', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'flag-admin-docs-'));
    const file = join(folder, 'state.json');
    copyFileSync(DEFAULT_FIXTURES_FILE, file);
    const own = await mockClient({ fixtures: file });
    try {
      const init = await get(own.mock.url, '/docs/init.js');
      expect(init.status).toBe(200);
      expect(init.text).not.toContain('preauthorizeApiKey');
      expect(init.text).not.toContain(ADMIN_KEY);
    } finally {
      await own.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('serves none of the package\'s other files: an unknown or escaping name is the mock\'s 404', async () => {
    // Names every object inherits (__proto__, toString) are not files either: once they were a 500 naming the package's folder.
    for (const path of ['/docs/index.html', '/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/swagger-ui-bundle.js.map', '/docs/__proto__', '/docs/constructor', '/docs/toString', '/docs/hasOwnProperty']) {
      const answer = await get(client.mock.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.json().name, path).toBe('NotFoundError');
      expect(answer.text, path).not.toContain('node_modules');
    }
  });
});
