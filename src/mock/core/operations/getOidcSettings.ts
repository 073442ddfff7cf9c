import type { OperationHandler } from './operation-handler.ts';

export const getOidcSettings: OperationHandler<'getOidcSettings'> = (store) => ({ status: 200, body: store.oidcSettings() });
