// The red-team targets themselves, without the suite: each broken target shows its defect to a
// plain client, each conformant one shows its unusual behaviour and answers the ordinary requests
// as the spec says. A miss in red-team.test.ts is only a fair miss when the witness here passes.
import { request, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveApp } from './app.ts';
import { describeOrdinaryAnswers } from './describe-round.ts';
import { TARGETS } from './servers.ts';
import { WITNESSES, ask } from './witnesses.ts';

describe('red-team targets', () => {
  it('every target has a unique name, a one-line description and a witness', () => {
    expect(new Set(TARGETS.map((t) => t.name)).size).toBe(TARGETS.length);
    expect(TARGETS.filter((t) => !t.description || t.description.includes('\n')).map((t) => t.name)).toEqual([]);
    expect(TARGETS.filter((t) => !WITNESSES[t.name]).map((t) => t.name)).toEqual([]);
    expect(Object.keys(WITNESSES).filter((n) => !TARGETS.some((t) => t.name === n))).toEqual([]);
  });

  for (const target of TARGETS) {
    it(`${target.name} shows ${target.broken ? 'its defect' : 'its unusual behaviour'} to a plain client`, async () => {
      const server = await target.start();
      try {
        await WITNESSES[target.name]!(server.url);
      } finally {
        await server.close();
      }
    });
  }

  it('no witness sees its behaviour on the faithful app (each one can fail)', async () => {
    const seen: string[] = [];
    for (const target of TARGETS) {
      const faithful = await serveApp();
      try {
        await WITNESSES[target.name]!(faithful.url);
        seen.push(target.name);
      } catch {
        // The faithful app lacks the behaviour: the witness failed, as it must.
      } finally {
        await faithful.close();
      }
    }
    expect(seen).toEqual([]);
  }, 30_000);
});

describe('the faithful app the targets are built from', () => {
  it('answers OPTIONS 204 without Content-Length (RFC 9110 §8.6: a server MUST NOT send it in a 204)', async () => {
    const faithful = await serveApp();
    try {
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) =>
        request(`${faithful.url}/api/admin/auth/oidc/settings`, { method: 'OPTIONS', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
        })
          .on('error', reject)
          .end(),
      );
      expect([answer.status, answer.headers['content-length'], answer.headers['transfer-encoding']]).toEqual([204, undefined, undefined]);
    } finally {
      await faithful.close();
    }
  });
});

describeOrdinaryAnswers('five', TARGETS, ask);
