// Starts the real open-source Unleash (npm: unleash-server) on loopback, for the Unleash tier
// (scripts/unleash/start.sh copies this file next to the node_modules that hold unleash-server,
// outside the repo). Every value comes from the environment start.sh sets.
import { start } from 'unleash-server';

const env = (name) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`scripts/unleash/server.mjs: ${name} is not set (start it with scripts/unleash/start.sh)`);
  return value;
};
const host = env('UNLEASH_HOST');
const port = Number(env('UNLEASH_PORT'));

const unleash = await start({
  db: { host: '127.0.0.1', port: Number(env('UNLEASH_DB_PORT')), user: 'unleash', password: 'unleash', database: 'unleash', ssl: false },
  server: { host, port, unleashUrl: `http://${host}:${port}` },
  authentication: {
    // Open-source Unleash: username/password users and API tokens.
    type: 'open-source',
    enableApiToken: true,
    createAdminUser: true,
    initApiTokens: [
      { type: 'admin', projects: ['*'], environment: '*', secret: env('UNLEASH_PEER_ADMIN_TOKEN'), tokenName: 'flag-admin-tier-admin' },
      { type: 'backend', projects: ['default'], environment: 'development', secret: env('UNLEASH_PEER_CLIENT_TOKEN'), tokenName: 'flag-admin-tier-client' },
      { type: 'frontend', projects: ['default'], environment: 'development', secret: env('UNLEASH_PEER_FRONTEND_TOKEN'), tokenName: 'flag-admin-tier-frontend' },
    ],
  },
  // Loopback only: no version check, no telemetry.
  versionCheck: { enable: false },
  telemetry: false,
  logLevel: process.env.LOG_LEVEL || 'warn',
});

console.log(`flag-admin unleash tier: Unleash listening on http://${host}:${port}`);
const stop = async () => {
  try {
    await unleash.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
