import type { MockRequest } from '../core/types.ts';
import { headerValue } from './layer.ts';

/** The header that carries the control token when the mock has one. */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

/** Who may use the control API and the browser-facing routes that show state or keys. */
export interface AccessPolicy {
  /** When set, every control request must carry it in X-Mock-Control-Token, loopback or not. */
  controlToken?: string;
  /** Browser origins besides this machine's own (`--cors-origin`) whose pages may use the control API. */
  allowedOrigins?: readonly string[];
  /**
   * Host names (or addresses) besides the loopback ones under which the mock may be addressed:
   * the host it is bound to and `--allowed-host`. Compared without case and without the port.
   */
  allowedHosts?: readonly string[];
}

/**
 * Who may control the mock, and see what it holds: the one rule of the control API (and of any
 * page that shows its state). Returns why not, naming the fix, or undefined when allowed.
 *
 * With a token: whoever sends it (a page cannot know it, whatever name it used). Without:
 * - loopback peers (127.0.0.0/8, ::1, their IPv4-mapped forms) and in-process callers (no address);
 * - addressed by a trusted name (hostDenied): else a page of any web site could rebind its own
 *   name to 127.0.0.1 and read the state with a same-origin GET, which carries no Origin;
 * - from a browser, only pages served from this machine or from an origin --cors-origin lists:
 *   a browser is a loopback peer too, and a no-body POST needs no preflight.
 */
export function controlAccessDenied(request: MockRequest, policy: AccessPolicy = {}): string | undefined {
  const { controlToken, allowedOrigins = [] } = policy;
  if (controlToken !== undefined) {
    const presented = headerValue(request, CONTROL_TOKEN_HEADER);
    return presented !== undefined && sameText(presented, controlToken) ? undefined : `The control API needs the control token in the X-Mock-Control-Token header.`;
  }
  const address = request.remoteAddress;
  if (address !== undefined && !/^(127\.|::ffff:127\.)/.test(address) && address !== '::1') {
    return 'The control API answers loopback callers only; start the mock with --control-token to open it to others.';
  }
  const host = hostDenied(request, policy.allowedHosts);
  if (host) return host;
  const origin = headerValue(request, 'origin');
  if (origin !== undefined && !isLoopbackOrigin(origin) && !allowedOrigins.includes(origin)) {
    return `The control API answers pages served from this machine only, not ${origin.slice(0, 100)}; list the origin with --cors-origin, or use --control-token.`;
  }
  return undefined;
}

/**
 * Whether the request was addressed to a name that cannot be rebound (the DNS rebinding defence
 * of webpack-dev-server and Vite): a loopback name (`localhost`, `*.localhost`, which browsers
 * resolve themselves, RFC 6761 §6.3) or address, or a host the policy lists. The names judged are
 * the Host header's and, for an absolute-form target (`GET http://name/…`), the target's own,
 * which RFC 9112 §3.2.2 says a server goes by: both must be trusted. No Host at all is no
 * browser (every browser sends one; HTTP/1.1 requires it and the node adapter refuses its
 * absence): in-process callers such as MSW and a Fetch handler have none.
 */
export function hostDenied(request: MockRequest, allowedHosts: readonly string[] = []): string | undefined {
  const authority = targetAuthority(request.url);
  if (authority !== undefined) {
    const denied = nameDenied(authority, allowedHosts);
    if (denied) return denied;
  }
  const host = headerValue(request, 'host');
  return host === undefined ? undefined : nameDenied(host, allowedHosts);
}

function nameDenied(host: string, allowedHosts: readonly string[]): string | undefined {
  const name = hostName(host);
  if (name !== undefined && (isLoopbackHost(name) || allowedHosts.some((allowed) => hostName(allowed.includes(':') && !allowed.startsWith('[') ? `[${allowed}]` : allowed) === name))) return undefined;
  const shown = JSON.stringify(host.slice(0, 100));
  return `Host ${shown} is refused: the control API and the docs' pre-filled key answer only requests addressed to localhost, 127.0.0.1, [::1] or the host the mock is bound to, so that no web page can rebind its own name to this machine. If you reach the mock under that name on purpose, start it with --allowed-host ${name ?? 'NAME'}.`;
}

/** The `host[:port]` of an absolute-form target, without userinfo (before the authority's last `@`); undefined for the origin form. */
function targetAuthority(target: string): string | undefined {
  if (target.charCodeAt(0) === 0x2f) return undefined;
  return /^https?:\/\/(?:[^/?#]*@)?([^/?#]*)/i.exec(target)?.[1];
}

/** The lower-case name or address of a Host value (RFC 9110 §7.2: `name[:port]` or `[v6][:port]`), without its port; undefined for what names no host. */
export function hostName(host: string): string | undefined {
  const found = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i.exec(host.trim());
  return found ? found[1]!.toLowerCase() : undefined;
}

function isLoopbackHost(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name === '[::1]' || /^\[::ffff:127\.[\d.]+\]$/.test(name);
}

/** An origin on this machine: localhost (RFC 6761 §6.3), 127.0.0.0/8 or [::1]. */
function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(hostname);
}

/** Compares in time independent of where the texts differ, so the token cannot be guessed byte by byte. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}
