/**
 * Host header values that name the base URL's own authority in another legal spelling (kind
 * host-spellings; spec decision required-request-headers: a Host naming this server otherwise
 * changes no answer). The host is case-insensitive (RFC 3986 §3.2.2, §6.2.2.1), a default port
 * may be written or left out (RFC 3986 §6.2.3, RFC 9110 §4.2.1), and a loopback address is named
 * by `localhost` too (RFC 6761 §6.3). Never another authority: no other port, and a name other
 * than localhost only for a loopback address, so a server that refuses authorities it does not
 * serve (421, RFC 9110 §15.5.20; DNS-rebinding guards) is never asked about one.
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
