import { NOT_IMPLEMENTED, isSuccess } from '../../http-status.ts';
import { VARIANT_KIND } from '../../plan/variants/variant-kinds.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { dataIn } from './options-harmless.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision request-target-forms (red team rounds ten and fifteen): every form of the request
 * target a client may legitimately send (RFC 9112 §3.2) gets an answer by the contract's rules.
 * The absolute form is the same resource (§3.2.2), and a path spelled so that a router or a proxy
 * may read it as another (a backslash, a doubled slash, `/./`, a `;` parameter, an encoded slash
 * or backslash) is the operation with its auth or nothing: judged by the model (formAnswers in
 * judge/model/allowed-answers.ts), this rule reports its verdicts on those variants. The
 * server-wide forms name no resource, so the model has nothing to say of them; this rule judges
 * them itself: `OPTIONS *` (the asterisk form, §3.2.4) and `CONNECT host:port` (the authority
 * form, §3.2.3) get a success or a refusal that carries no operation's data; a CONNECT may also
 * be answered by closing the connection (connection-independent lets that pass). A 5xx other than
 * 501 is not-a-server-error's to report; 501 is a method the server does not implement (RFC 9110
 * §9.1, §15.6.2).
 */
export const requestTargetForms: Rule = {
  id: 'request-target-forms',
  severity: 'error',
  title: 'Another form or spelling of the request target gets no more than the target itself',
  proves:
    'each operation answers a request target in absolute form (`GET http://host/path HTTP/1.1`) as it answers the origin form, auth first (or refuses the form with 400), and a path with one slash spelled as a backslash, a doubled slash, a `/./` segment, a `;` ending a segment, `%2F` or `%5C` gets the operation with its auth and permission, or a 400, 404 or redirect: never the operation without a valid key or past a permission the key lacks; `OPTIONS * HTTP/1.1` (the asterisk form) and `CONNECT host:port` (the authority form), once each with a credential class drawn from the seed, get a 2xx without any operation\'s data, a 4xx or 501, never a server error (RFC 9112 §3.2; spec decision request-target-forms)',
  level: 'behaviour',
  claims: [variantClaim('request-target-forms')],
  steps: ['variant'],
  judge: (exchanges, context) =>
    variantsOf(exchanges, 'request-target-forms')
      .filter((e) => e.response)
      .flatMap((exchange): Judgement[] => {
        if (!VARIANT_KIND.get(exchange.variant!.kind)?.serverWide) return [passed(exchange)];
        const { status } = exchange.response!;
        // 5xx but 501: not-a-server-error reports it (one defect, one finding).
        if (status >= 500 && status !== NOT_IMPLEMENTED) return [];
        if (status < 200 || (status >= 300 && status < 400)) {
          return [failed({ exchange, message: `${exchange.label}: answered ${status}; a request about the server as a whole gets its answer (2xx) or a refusal (4xx, 501), not a redirect to a resource (spec decision request-target-forms).`, expected: 'a 2xx without data, a 4xx or 501', got: `status ${status}` })];
        }
        // Whatever operation the request is filed under, none of them may hand out its data to a request that names no resource.
        const data = isSuccess(status) ? context.contract.operations.map((operation) => dataIn(exchange.response!, operation)).find((found) => found !== undefined) : undefined;
        if (data) {
          return [failed({ exchange, message: `${exchange.label}: answered ${status} with an operation's data (${data}); a request that names no resource gets no resource's data, with any key or none (RFC 9110 §9.3.7; spec decision request-target-forms).`, expected: 'no data of any operation', got: data })];
        }
        return [passed(exchange)];
      }),
};
