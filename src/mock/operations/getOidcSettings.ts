import type { OperationHandler } from './operation-handler.ts';

export const getOidcSettings: OperationHandler = (store) => ({ status: 200, body: store.oidcSettings() });
