// The parts of undici the sender uses (an Agent, its connector, a request on a dispatcher), each
// required on its own. undici's index also loads its fetch, WebSocket, cache, proxy and mock
// trees (109 modules, and Node's web streams through its WebIDL), about 60 ms of CPU of a
// ~400 ms check run, for nothing the suite calls (bench/run.ts, conformance). undici has no
// "exports" map, so these paths are what `require` resolves; package-lock.json pins the version,
// and every conformance test sends through here, so a file moved in an upgrade fails them all.
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, buildConnector as UndiciBuildConnector, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export type Agent = UndiciAgent;
export const buildConnector = require('undici/lib/core/connect.js') as typeof UndiciBuildConnector;
export type Connector = UndiciBuildConnector.connector;

const requestOn = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { parseURL } = require('undici/lib/core/util.js') as { parseURL(url: string): URL };

/**
 * undici's `request(url, options)` as its index builds it (makeDispatcher in undici/index.js):
 * the URL parsed by undici's own parseURL, then Dispatcher#request with its origin and path.
 */
export function request(url: string, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = parseURL(url);
  return requestOn.call(dispatcher, { ...rest, origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname });
}
