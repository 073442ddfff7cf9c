import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCliProcesses } from '../../test/cli-process.ts';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from './run-check.ts';
import { freshMock, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * RFC 9110 §15.2: "A client MUST be able to parse one or more 1xx responses received prior to a
 * final response, even if the client does not expect one." A correct target that sends an interim
 * answer before each answer to an HTTP/1.1 request (none to HTTP/1.0, §15.2) is judged like the mock itself: CONFORMANT, every request answered.
 * The unasked 100 Continue is the case the suite's former client (undici) refused outright, so
 * that `check` ended with exit 3, "cannot reach".
 */
const run = useCliProcesses({ PATH: process.env.PATH ?? '', FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY });
let contract: Contract;
const running: RunningServer[] = [];
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

const INTERIM: { name: string; send: (res: ServerResponse) => void }[] = [
  { name: '100 Continue, unasked', send: (res) => res.writeContinue() },
  { name: '102 Processing', send: (res) => res.writeProcessing() },
  { name: '103 Early Hints', send: (res) => res.writeEarlyHints({ link: '</app.css>; rel=preload; as=style' }) },
  { name: '100 Continue twice, then 103 Early Hints', send: (res) => (res.writeContinue(), res.writeContinue(), res.writeEarlyHints({ link: '</a.js>; rel=preload; as=script' })) },
];

describe('flag-admin check against the mock behind interim answers', () => {
  it.each(INTERIM)('$name before every answer: CONFORMANT, every request answered', async ({ send }) => {
    const mock = freshMock(contract);
    let received = 0;
    const target = await serveRaw((req, res, answer) => {
      received++;
      const response = mock.handle(toMockRequest(req));
      if (response instanceof Promise) throw new Error('the mock answered later; this target serves only synchronous answers');
      // RFC 9110 §15.2: never to an HTTP/1.0 client (rule no-interim-to-http-one-zero); node:http would write them to one.
      if (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1) send(res);
      setTimeout(() => answer(response), 2);
    });
    running.push(target);
    const child = run(['check', ...targetArgs(target.url)]);
    const code = await child.exited;
    expect(child.err()).toBe('');
    const verdict = /^(NOT )?CONFORMANT: (\d+) requests, (\d+) error\(s\)/m.exec(child.out());
    expect(verdict?.[0]).toMatch(/^CONFORMANT: \d+ requests, 0 error\(s\)/);
    expect(code).toBe(0);
    // Every request the run sent reached the target and got its answer (the variants' own chains included), but those without Host:
    // node:http answers them 400 before any handler (RFC 9112 §3.2), one per operation (variant kind host-lines).
    const withoutHost = contract.operations.filter((o) => o.authHeaders.length > 0).length;
    // Nor those whose method is a listed one in another case (spec decision unlisted-methods): node:http's parser refuses a method
    // it does not know with 400 too, one per path without a key and the delete at a live token (--allow-delete).
    const otherCase = new Set(contract.operations.map((o) => o.path)).size + 1;
    expect(received + withoutHost + otherCase).toBe(Number(verdict![2]));
  }, 60_000);
});
