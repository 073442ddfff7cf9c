// The mock's Node entry: the runtime-neutral core (./neutral.ts; Ajv loads on first use) plus what needs Node: files,
// sockets, and defaults read from the environment.
export * from './neutral.ts';
export { createMock, type CreateMockOptions } from './adapters/node-create-mock.ts';
export { createMockHandler, type MockHandlerOptions } from './adapters/node-create-mock-handler.ts';
export { DEFAULT_FIXTURES_FILE, loadFixtures, type FixtureSource } from './adapters/node-fixture-files.ts';
export { serveHandler, type RunningServer, type ServeOptions } from './adapters/node-server.ts';
export { DEFAULT_LIMITS, type ConnectionLimits } from './adapters/node-connection-guards.ts';
export { startMock, type RunningMock, type StartMockOptions } from './adapters/node-start-mock.ts';
export { watchFile } from './adapters/node-watch-file.ts';
