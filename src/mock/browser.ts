// The runtime-neutral entry of the mock: no node:* module, no file system, no `process`. What a
// browser page, a service worker (MSW's setupWorker) or any Fetch-based host imports. The spec
// and the fixtures come in as values (createContract(document), `fixtures: state`).
// A test bundles this file for a browser with esbuild and fails on any Node import.
// Ajv goes in the bundle here: without a require, the contract cannot load it on first use
// (src/contract/ajv-engine.ts), and the Node entry, which can, starts without it.
import '../contract/ajv-bundled.ts';

export * from './neutral.ts';
