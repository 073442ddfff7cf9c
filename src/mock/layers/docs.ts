import type { MockHandle, MockRequest, MockResponse } from '../core/types.ts';
import { requestPath } from '../core/request-path.ts';
import { hostDenied, hostName } from './control-access.ts';

/**
 * The spec and its interactive reference, served by the mock itself (issue 6, "Docs"): a layer
 * over any MockHandle that answers GET/HEAD of its own paths and passes everything else on.
 * Runtime-neutral; the reference's static files come from a `DocsAssets` the adapter supplies,
 * since reading a package's files needs Node (adapters/node-swagger-ui-assets.ts).
 */

export const DOCS_PATHS = { json: '/openapi.json', yaml: '/openapi.yaml', page: '/docs' } as const;

/** A static file of the reference, as text. */
export interface DocsAsset {
  type: string;
  body: string;
}

/** The reference's files by name under `/docs/` (e.g. `swagger-ui-bundle.js`); undefined for none. */
export type DocsAssets = (file: string) => Promise<DocsAsset | undefined>;

export interface DocsOptions {
  /** The OpenAPI document served, as authored (refs intact); its `servers` are replaced per request. */
  document: Readonly<Record<string, unknown>>;
  /**
   * A key the reference pre-fills into its Authorize dialog so try-it works at once. Only pass a
   * public test key (the embedded default fixtures'): the page shows it to anyone who opens it.
   * @example { prefillKey: 'mock-admin-key' }
   */
  prefillKey?: string;
  /** The reference's static files; without them `/docs` is not served (the spec still is). */
  assets?: DocsAssets;
  /**
   * Writes a value as YAML, for /openapi.yaml (served only with it). Passed in rather than
   * imported so the browser bundle, which never serves docs, does not carry a YAML writer (~100 KiB).
   * @example { toYaml: (value) => stringify(value) } // stringify from the `yaml` package
   */
  toYaml?: (value: unknown) => string;
}

/**
 * `allowedHosts`: names besides the loopback ones under which the pre-filled key is given out
 * (control-access.ts, hostDenied): a page of another name rebound to this machine gets the
 * reference without it.
 */
export function docsLayer(options: DocsOptions, allowedHosts: readonly string[] = []): (next: MockHandle) => MockHandle {
  const { document, assets, toYaml } = options;
  const page = docsPage();
  const init = docsInitScript(document, options.prefillKey);
  const initWithoutKey = options.prefillKey === undefined ? init : docsInitScript(document, undefined);
  const prefix = `${DOCS_PATHS.page}/`;
  return (next) => (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next(request);
    const path = requestPath(request.url);
    switch (path) {
      case DOCS_PATHS.json:
        return ok(JSON.stringify(servedDocument(document, serverUrl(request)), null, 2), 'application/json');
      case DOCS_PATHS.yaml:
        // application/yaml: the media type RFC 9512 registers for YAML.
        if (toYaml) return ok(toYaml(servedDocument(document, serverUrl(request))), 'application/yaml');
    }
    if (!assets || (path !== DOCS_PATHS.page && !path.startsWith(prefix))) return next(request);
    if (path === DOCS_PATHS.page || path === prefix) return ok(page, 'text/html; charset=utf-8', DOCS_CSP);
    if (path === `${prefix}init.js`) {
      const denied = init === initWithoutKey ? undefined : hostDenied(request, allowedHosts);
      // The reference still works; only the key is held back, and the page's console says why.
      return ok(denied ? `${initWithoutKey}console.warn(${JSON.stringify(`flag-admin mock: the API key is not pre-filled. ${denied}`)});\n` : init, 'text/javascript; charset=utf-8');
    }
    return assets(path.slice(prefix.length)).then((asset) => (asset ? ok(asset.body, asset.type, { 'cache-control': 'public, max-age=3600' }) : next(request)));
  };
}

/** The document with `servers` naming this mock, so try-it and generated clients call it. */
export function servedDocument(document: Readonly<Record<string, unknown>>, url: string): Record<string, unknown> {
  return { ...document, servers: [{ url, description: 'This flag-admin-contract mock' }] };
}

/**
 * The mock's URL as the client reached it, from the Host header when it names a host as the
 * rebinding check reads one (control-access.ts). Without a usable one (a Fetch
 * handler in a browser never sees Host), `/`: OpenAPI resolves a relative server URL against
 * the document's own, which is this mock.
 */
function serverUrl(request: MockRequest): string {
  const host = request.headers.host;
  return typeof host === 'string' && hostName(host) !== undefined ? `http://${host}` : '/';
}

/**
 * The page loads nothing but this origin's own files (no CDN), and this policy holds it to them:
 * a reference that reached elsewhere would be blocked, and the browser test would see it. Swagger
 * UI sets inline styles and shows some images as data: URLs.
 */
const DOCS_CSP = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'",
};

function ok(body: string, type: string, headers: Record<string, string> = {}): MockResponse {
  return { status: 200, headers: { 'content-type': type, 'cache-control': 'no-cache', ...headers }, body };
}

function docsPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>flag-admin mock: API reference</title>
  <link rel="stylesheet" href="${DOCS_PATHS.page}/swagger-ui.css">
  <link rel="icon" href="data:,">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATHS.page}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATHS.page}/init.js"></script>
</body>
</html>
`;
}

/**
 * Swagger UI's start-up: the spec from this mock (whose `servers` is this mock), try-it open, and
 * the spec's apiKey scheme pre-authorized with `prefillKey`. BaseLayout has no top bar, so there
 * is no box to load another spec and no online validator badge (validatorUrl 'none').
 */
function docsInitScript(document: Readonly<Record<string, unknown>>, prefillKey: string | undefined): string {
  const scheme = apiKeySchemeName(document);
  const config = {
    url: DOCS_PATHS.json,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    tryItOutEnabled: true,
    displayOperationId: true,
    displayRequestDuration: true,
    validatorUrl: 'none',
  };
  const preauthorize = prefillKey !== undefined && scheme !== undefined ? `ui.preauthorizeApiKey(${JSON.stringify(scheme)}, ${JSON.stringify(prefillKey)});` : '';
  return `// Generated by flag-admin-contract (src/mock/layers/docs.ts).
const ui = SwaggerUIBundle(Object.assign(${JSON.stringify(config)}, {
  presets: [SwaggerUIBundle.presets.apis],
  onComplete: () => { ${preauthorize} },
}));
window.ui = ui;
`;
}

/** The name of the spec's first apiKey security scheme: the one try-it must fill in. */
function apiKeySchemeName(document: Readonly<Record<string, unknown>>): string | undefined {
  const components = document.components as { securitySchemes?: Record<string, { type?: string }> } | undefined;
  return Object.entries(components?.securitySchemes ?? {}).find(([, scheme]) => scheme.type === 'apiKey')?.[0];
}
