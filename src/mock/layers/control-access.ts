import type { MockRequest } from '../core/types.ts';
import { headerValue } from './layer.ts';

/** The header that carries the control token when the mock has one. */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

/**
 * Who may control the mock. With a token: whoever sends it. Without: loopback peers (127.0.0.0/8,
 * ::1, their IPv4-mapped forms) and in-process callers (no address), and of those, when a browser
 * sends the request, only pages served from this machine or from an origin --cors-origin lists.
 * A browser is a loopback peer too, so without that any web site open in it could reset, read
 * or replace the state (a no-body POST needs no preflight).
 */
export function controlAccessDenied(request: MockRequest, token: string | undefined, allowedOrigins: readonly string[] = []): string | undefined {
  if (token !== undefined) {
    const presented = headerValue(request, CONTROL_TOKEN_HEADER);
    return presented !== undefined && sameText(presented, token) ? undefined : `The control API needs the control token in the X-Mock-Control-Token header.`;
  }
  const address = request.remoteAddress;
  if (address !== undefined && !/^(127\.|::ffff:127\.)/.test(address) && address !== '::1') {
    return 'The control API answers loopback callers only; start the mock with --control-token to open it to others.';
  }
  const origin = headerValue(request, 'origin');
  if (origin !== undefined && !isLoopbackOrigin(origin) && !allowedOrigins.includes(origin)) {
    return `The control API answers pages served from this machine only, not ${origin.slice(0, 100)}; list the origin with --cors-origin, or use --control-token.`;
  }
  return undefined;
}

/** An origin on this machine: localhost (RFC 6761 §6.3), 127.0.0.0/8 or [::1]. */
function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';
}

/** Compares in time independent of where the texts differ, so the token cannot be guessed byte by byte. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}
