import { describe, expect, it } from 'vitest';
import { readExchanges } from '../read-exchange.ts';
import { noInterimToHttpOneZero } from './no-interim-to-http-one-zero.ts';
import type { RuleContext } from '../rule.ts';

const context = {} as RuleContext;
const OK = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };

describe('interim answers only to HTTP/1.1 requests (RFC 9110 §15.2)', () => {
  it('fails an HTTP/1.0 request answered with a 1xx before its final answer, naming the interim status', () => {
    const exchange = readExchanges();
    const asked = exchange('full', { ...OK, interim: [103] }, {}, 'http-1.0');
    const [judgement] = noInterimToHttpOneZero.judge([asked], context);
    expect(judgement?.verdict).toBe('failed');
    expect(judgement?.verdict === 'failed' && judgement.finding.got).toContain('103');
  });

  it('passes an HTTP/1.0 request answered without a 1xx, and leaves a 1xx to an HTTP/1.1 request alone (a server may send 103 there)', () => {
    const exchange = readExchanges();
    const plain = exchange('none', { ...OK, status: 401 }, {}, 'http-1.0');
    const eleven = exchange('full', { ...OK, interim: [103, 100] }, {}, 'connection-close');
    expect(noInterimToHttpOneZero.judge([plain, eleven], context).map((j) => j.verdict)).toEqual(['passed']);
  });
});
