import { METHOD_NOT_ALLOWED, NOT_IMPLEMENTED } from '../../http-status.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';

/**
 * An Allow header lists the methods the target resource supports (RFC 9110 §10.2.1; a 405 must
 * carry it, §15.5.6): a client reads it to learn what it may send. One that names a method the
 * same server refuses on the same path (405 Method Not Allowed, 501 Not Implemented, in this
 * run) contradicts itself, e.g. one Allow for the whole app written on every path. HEAD and
 * OPTIONS are left out: frameworks list them for every route and the decisions let a server
 * refuse either with 405 all the same (head-requests, options-requests: a plain OPTIONS refused
 * where preflights are answered). The other direction (an Allow that lacks a method the spec
 * lists) is unlisted-method-rejected's.
 */
export const allowNamesServedMethods: Rule = {
  id: 'allow-names-served-methods',
  severity: 'error',
  title: 'Allow names no method the server refuses there',
  proves:
    'every Allow header (on a 405, an OPTIONS answer, a HEAD refused) names only methods the same path serves: none (HEAD and OPTIONS aside, which the decisions let a server refuse all the same) that the same server answers 405 or 501 on that path in the run (RFC 9110 §10.2.1, §15.5.6; spec decision unlisted-methods: Allow names the methods of the path)',
  level: 'behaviour',
  judge: (exchanges, context) => {
    // What the server answered each method on each path (query left out), once for the run.
    const refused = new Map<string, Map<string, number>>();
    // Plain requests only: a variant's answer may show another defect (an override header that swaps the method), which its own rule reports.
    for (const e of context.all) {
      if (e.variant) continue;
      const status = e.response?.status;
      if ((status !== METHOD_NOT_ALLOWED && status !== NOT_IMPLEMENTED) || FRAMEWORK_METHODS.has(e.method)) continue;
      const path = pathOnly(e.path);
      let byMethod = refused.get(path);
      if (!byMethod) refused.set(path, (byMethod = new Map()));
      if (!byMethod.has(e.method)) byMethod.set(e.method, e.seq);
    }
    return exchanges.flatMap((exchange): Judgement[] => {
      const allow = exchange.response?.headers.allow;
      if (allow === undefined || exchange.variant) return [];
      const byMethod = refused.get(pathOnly(exchange.path));
      const named = allow.split(',').map((m) => m.trim()).filter((m) => m !== '');
      const contradicted = named.filter((method) => byMethod?.has(method));
      if (contradicted.length === 0) return [passed(exchange)];
      const first = byMethod!.get(contradicted[0]!)!;
      return [
        failed({
          exchange,
          message: `${exchange.label}: its Allow names ${contradicted.join(', ')}, which the same server refuses on this path (request #${first} got ${context.all.find((e) => e.seq === first)?.response?.status}); Allow lists only the methods the resource supports (RFC 9110 §10.2.1).`,
          expected: 'an Allow naming the methods this path serves',
          got: `Allow: ${allow}`,
          contradicts: first,
        }),
      ];
    });
  },
};

const pathOnly = (path: string) => path.split('?')[0]!;
const FRAMEWORK_METHODS: ReadonlySet<string> = new Set(['HEAD', 'OPTIONS']);
