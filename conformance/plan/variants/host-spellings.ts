/**
 * Host header values that name the base URL's own authority in another legal spelling (kind
 * host-spellings; spec decision required-request-headers: a Host naming this server otherwise
 * changes no answer). The host is case-insensitive (RFC 3986 §3.2.2, §6.2.2.1), a default port
 * may be written or left out (RFC 3986 §6.2.3, RFC 9110 §4.2.1), and a loopback address is named
 * by `localhost` too (RFC 6761 §6.3). Never another port, and a name other than the base URL's
 * only for a loopback address: `localhost` for `127.0.0.1` is another authority by RFC 3986's
 * syntax, which a strict allow-list (Django's ALLOWED_HOSTS) may refuse as such, 400 or 421
 * (RFC 9110 §15.5.20), and the model allows that (namesSameAuthority), never another answer.
 */
export interface HostSpelling {
  name: string;
  host(base: URL): string;
}

/** 127.0.0.0/8 and ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3), as URL writes them. */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Each label's first letter in upper case: `Flags.Example.Com`; an address stays as it is. */
const titled = (name: string) => name.replace(/(^|\.)([a-z])/g, (_, dot: string, letter: string) => dot + letter.toUpperCase());

export const HOST_SPELLINGS: readonly HostSpelling[] = [
  {
    name: 'the host in upper case (localhost for a loopback address)',
    host: (base) => (LOOPBACK.test(base.hostname) ? 'localhost' : base.hostname.toUpperCase()) + (base.port ? `:${base.port}` : ''),
  },
  {
    name: 'the host in mixed case (LocalHost for a loopback address), the port written out',
    host: (base) => (LOOPBACK.test(base.hostname) ? 'LocalHost' : titled(base.hostname)) + `:${base.port || DEFAULT_PORT[base.protocol] || '80'}`,
  },
];

/** Whether a Host value names the base URL's authority itself: the same host but for case (RFC 3986 §3.2.2), the same port, a default one written or not (§6.2.3). */
export function namesSameAuthority(host: string, base: URL): boolean {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim());
  if (!match) return false;
  const port = (p: string | undefined) => (p === undefined || p === '' ? (DEFAULT_PORT[base.protocol] ?? '80') : String(Number(p)));
  return match[1]!.toLowerCase() === base.hostname.toLowerCase() && port(match[2]) === port(base.port);
}
