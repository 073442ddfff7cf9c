// Internals that tests reach for; the package's public surface is ./index.ts.
export { createHandle } from './handle.ts';
export { createStore } from './store.ts';
export { loadFixtures } from './fixtures.ts';
export { operationHandlers } from './operations/index.ts';
