import { quoteId, type OperationHandler } from './operation-handler.ts';

// A token is identified by both ids (API §4.3): a token of another account is not found here.
export const deleteServiceAccountToken: OperationHandler<'deleteServiceAccountToken'> = (store, { id, tokenId }) =>
  store.deleteToken(id, tokenId)
    ? { status: 200 }
    : { status: 404, error: `Service account ${quoteId(id)} has no token ${quoteId(tokenId)}.` };
