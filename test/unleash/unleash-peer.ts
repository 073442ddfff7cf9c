import { describe, it } from 'vitest';

/** The real Unleash the tier runs against, as scripts/unleash/start.sh writes it into unleash.env. */
export interface UnleashPeer {
  url: string;
  adminToken: string;
  clientToken: string;
  frontendToken: string;
  viewerPat: string;
}

const VARIABLES = ['UNLEASH_PEER_URL', 'UNLEASH_PEER_ADMIN_TOKEN', 'UNLEASH_PEER_CLIENT_TOKEN', 'UNLEASH_PEER_FRONTEND_TOKEN', 'UNLEASH_PEER_VIEWER_PAT'] as const;

/** The peer from the environment, or undefined when none is set up. */
export function unleashPeer(): UnleashPeer | undefined {
  if (missingVariables().length > 0) return undefined;
  const env = process.env as Record<(typeof VARIABLES)[number], string>;
  return { url: env.UNLEASH_PEER_URL.replace(/\/+$/, ''), adminToken: env.UNLEASH_PEER_ADMIN_TOKEN, clientToken: env.UNLEASH_PEER_CLIENT_TOKEN, frontendToken: env.UNLEASH_PEER_FRONTEND_TOKEN, viewerPat: env.UNLEASH_PEER_VIEWER_PAT };
}

function missingVariables(): string[] {
  return VARIABLES.filter((name) => !process.env[name]);
}

/**
 * A describe block that runs against the peer. Without one it is skipped locally, and in CI it
 * is one failing test that says what is missing (a failure the reports count, not a file that
 * did not load).
 */
export function describeAgainstUnleash(name: string, body: (peer: UnleashPeer) => void): void {
  const peer = unleashPeer();
  if (peer) {
    describe(name, () => body(peer));
    return;
  }
  const why = `the Unleash tier needs ${missingVariables().join(', ')}: bash scripts/unleash/start.sh, then source the env file it names`;
  if (!process.env.CI) {
    describe.skip(`${name} (${why})`, () => {});
    return;
  }
  describe(name, () => {
    it('has a real Unleash to run against (CI is set: a missing Unleash is a failure, never a skip)', () => {
      throw new Error(why);
    });
  });
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
