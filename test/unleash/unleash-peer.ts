import { describe } from 'vitest';

/** The real Unleash the tier runs against, as scripts/unleash/start.sh writes it into unleash.env. */
export interface UnleashPeer {
  url: string;
  adminToken: string;
  clientToken: string;
  frontendToken: string;
  viewerPat: string;
}

const VARIABLES = ['UNLEASH_PEER_URL', 'UNLEASH_PEER_ADMIN_TOKEN', 'UNLEASH_PEER_CLIENT_TOKEN', 'UNLEASH_PEER_FRONTEND_TOKEN', 'UNLEASH_PEER_VIEWER_PAT'] as const;

/**
 * The peer from the environment, or undefined when none is set up. With CI set, a missing peer is
 * a failure, never a skip (issue 19): the tier exists to run there.
 */
export function unleashPeer(): UnleashPeer | undefined {
  const missing = VARIABLES.filter((name) => !process.env[name]);
  if (missing.length > 0) {
    if (process.env.CI) throw new Error(`the Unleash tier needs ${missing.join(', ')}: start Unleash with bash scripts/unleash/start.sh and source the env file it names`);
    return undefined;
  }
  const env = process.env as Record<(typeof VARIABLES)[number], string>;
  return { url: env.UNLEASH_PEER_URL.replace(/\/+$/, ''), adminToken: env.UNLEASH_PEER_ADMIN_TOKEN, clientToken: env.UNLEASH_PEER_CLIENT_TOKEN, frontendToken: env.UNLEASH_PEER_FRONTEND_TOKEN, viewerPat: env.UNLEASH_PEER_VIEWER_PAT };
}

/** A describe block that runs against the peer; skipped locally without one (never in CI: unleashPeer throws). */
export function describeAgainstUnleash(name: string, body: (peer: UnleashPeer) => void): void {
  const peer = unleashPeer();
  if (!peer) describe.skip(`${name} (no Unleash: bash scripts/unleash/start.sh, then source its env file)`, () => {});
  else describe(name, () => body(peer));
}

/** Throws unless the peer answers /health GOOD: a down Unleash fails the tier rather than every test one by one. */
export async function assertHealthy(peer: UnleashPeer): Promise<void> {
  let health: string;
  try {
    health = await (await fetch(`${peer.url}/health`, { signal: AbortSignal.timeout(5000) })).text();
  } catch (error) {
    throw new Error(`Unleash at ${peer.url} does not answer (${error instanceof Error ? error.message : String(error)}): bash scripts/unleash/start.sh`);
  }
  if (!health.includes('GOOD')) throw new Error(`Unleash at ${peer.url}/health says ${health.slice(0, 200)}`);
}
