import { describe, expect, it } from 'vitest';
import { HOST_SPELLINGS, namesSameAuthority } from './host-spellings.ts';

const spelled = (base: string) => HOST_SPELLINGS.map((s) => s.host(new URL(base)));

describe('Host spellings of the base URL\'s own authority (RFC 3986 §3.2.2, §6.2.2.1, §6.2.3; RFC 6761 §6.3)', () => {
  it('names a loopback address by the name localhost, in lower and in mixed case, with the port', () => {
    expect(spelled('http://127.0.0.1:4010')).toEqual(['localhost:4010', 'LocalHost:4010']);
    expect(spelled('http://[::1]:4010/base')).toEqual(['localhost:4010', 'LocalHost:4010']);
  });

  it('spells a host name in upper and in mixed case, and spells out a default port the base URL leaves out', () => {
    expect(spelled('http://localhost:4010')).toEqual(['LOCALHOST:4010', 'Localhost:4010']);
    expect(spelled('https://flags.example.com')).toEqual(['FLAGS.EXAMPLE.COM', 'Flags.Example.Com:443']);
    expect(spelled('http://flags.example.com:80')).toEqual(['FLAGS.EXAMPLE.COM', 'Flags.Example.Com:80']);
  });

  it('never names another authority: another port, or an address the loopback rule does not read (an IPv4-mapped one, left as it is where nothing else spells it; the tests name no address beyond loopback)', () => {
    for (const base of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::ffff:127.0.0.1]:8080']) {
      const url = new URL(base);
      for (const host of spelled(base)) expect(host.endsWith(`:${url.port}`) || !url.port).toBe(true);
    }
    expect(spelled('http://[::FFFF:7F00:1]:8080')).toEqual(['[::FFFF:7F00:1]:8080', '[::ffff:7f00:1]:8080']);
  });

  it('tells the spellings of the base URL\'s own authority from another name of the same loopback server', () => {
    expect(namesSameAuthority('FLAGS.example.COM', new URL('https://flags.example.com'))).toBe(true);
    expect(namesSameAuthority('Flags.Example.Com:443', new URL('https://flags.example.com'))).toBe(true);
    expect(namesSameAuthority('flags.example.com:8443', new URL('https://flags.example.com'))).toBe(false);
    expect(namesSameAuthority('localhost:4010', new URL('http://127.0.0.1:4010'))).toBe(false);
    expect(namesSameAuthority('127.0.0.1:4010', new URL('http://127.0.0.1:4010'))).toBe(true);
    expect(namesSameAuthority('[::1]:4010', new URL('http://[::1]:4010'))).toBe(true);
  });
});
