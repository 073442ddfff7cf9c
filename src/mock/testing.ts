// Internals that tests reach for; the package's public surface is ./index.ts.
export { createHandle } from './core/handle.ts';
export { createStore } from './core/store.ts';
export { loadFixtures } from './adapters/node-fixture-files.ts';
export { operationHandlers } from './core/operations/index.ts';
