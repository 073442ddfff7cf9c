// Every round-eleven target's witness sees its defect (or its unusual behaviour) on the target, and
// nothing on the faithful app (describe-round.ts, shared by the rounds); each conformant target
// also answers the ordinary requests as the spec says.
import { describe, expect, it } from 'vitest';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';
import { describeWitnesses } from '../describe-round.ts';
import { TARGETS } from './servers.ts';
import { ask, WITNESSES } from './witnesses.ts';

describeWitnesses('eleven', TARGETS, WITNESSES);

describe('round eleven conformant targets', () => {
  for (const target of TARGETS.filter((t) => !t.broken)) {
    it(`${target.name} answers the ordinary requests as the spec says`, async () => {
      const server = await target.start();
      try {
        const statuses = [
          (await ask(server.url, '/api/admin/environments/project/default', { key: FULL_KEY })).status,
          (await ask(server.url, '/api/admin/auth/oidc/settings', { key: RESTRICTED_KEY })).status,
          (await ask(server.url, '/api/admin/auth/oidc/settings')).status,
          (await ask(server.url, '/api/admin/service-account/1/token/3', { method: 'DELETE', key: FULL_KEY })).status,
          (await ask(server.url, '/api/admin/service-account/1/token/3', { method: 'DELETE', key: FULL_KEY })).status,
          (await ask(server.url, '/api/admin/service-account/2/token/1', { method: 'DELETE', key: FULL_KEY })).status,
          (await ask(server.url, '/api/admin/environments/project/DEFAULT', { key: FULL_KEY })).status,
        ];
        expect(statuses).toEqual([200, 403, 401, 200, 404, 404, 404]);
      } finally {
        await server.close();
      }
    });
  }
});
