import { describe, expect, it } from 'vitest';
import { loadContract, responseFor } from '../../src/contract/index.ts';
import { alikeForm, valuesIfAlike } from './alike-form.ts';

const contract = await loadContract({ validate: false, lazyValidators: true });
const operation = contract.operations.find((o) => o.operationId === 'getOidcSettings')!;
const schema = responseFor(operation, 401)!.schema;
const HEADERS = { 'content-type': 'application/json' };
const MESSAGE = 'You must provide an API key in the Authorization header.';

/** A 401 as the mock writes one (src/mock/core/errors.ts): id, name, message, in that order. */
function unauthorized(id: string, message = MESSAGE, headers: Record<string, string> = HEADERS) {
  return { status: 401, headers, body: JSON.stringify({ id, name: 'AuthenticationRequired', message }) };
}

describe('valuesIfAlike: an answer read alike an earlier one by its bytes alone', () => {
  const form = alikeForm(unauthorized('9c40958a-daac-400e-98fb-3bb438567008'), schema)!;

  it('gives the per-instance values, in body order, of an answer that differs from the earlier one in them alone (an id of another length too)', () => {
    expect(form).toBeDefined();
    expect(valuesIfAlike(form, unauthorized('f373ae1a-0942-49cf-b39a-693c611eb477'))).toEqual(['f373ae1a-0942-49cf-b39a-693c611eb477', MESSAGE]);
    expect(valuesIfAlike(form, unauthorized('e-1', 'another wording'))).toEqual(['e-1', 'another wording']);
  });

  it('says nothing (judged in full) where sameForm might not hold: another status, header, field, or text after the body', () => {
    const other = unauthorized('e-2');
    expect(valuesIfAlike(form, { ...other, status: 403 })).toBeUndefined();
    expect(valuesIfAlike(form, unauthorized('e-2', MESSAGE, { 'content-type': 'application/json; charset=utf-8' }))).toBeUndefined();
    expect(valuesIfAlike(form, unauthorized('e-2', MESSAGE, { ...HEADERS, 'cache-control': 'no-store' }))).toBeUndefined();
    expect(valuesIfAlike(form, { ...other, body: other.body.replace('AuthenticationRequired', 'NoAccessError') })).toBeUndefined();
    expect(valuesIfAlike(form, { ...other, body: `${other.body} ` })).toBeUndefined();
    expect(valuesIfAlike(form, { ...other, body: other.body.slice(0, -1) })).toBeUndefined();
  });

  it('says nothing where alikeForm would not cut the answer exactly: a value escaped, not a string, or standing elsewhere in the body too', () => {
    expect(valuesIfAlike(form, unauthorized('with "quotes"'))).toBeUndefined();
    expect(valuesIfAlike(form, unauthorized('e-3', 'a line\nbreak'))).toBeUndefined();
    const escaped = unauthorized('e-3');
    expect(valuesIfAlike(form, { ...escaped, body: escaped.body.replace('"e-3"', '"\\u0065-3"') })).toBeUndefined();
    expect(valuesIfAlike(form, { ...escaped, body: escaped.body.replace('"e-3"', '42') })).toBeUndefined();
    // The id's text also stands as the message: the two cannot be told apart by position alone.
    expect(valuesIfAlike(form, unauthorized('same', 'same'))).toBeUndefined();
    expect(valuesIfAlike(form, unauthorized('AuthenticationRequired'))).toBeUndefined();
  });
});
