// Every round-seven target's witness sees its defect (or its unusual behaviour) on the target, and
// sees nothing on the faithful app: so a target the suite passes is a fair miss, and the faithful
// app carries none of the defects.
import { describe, expect, it } from 'vitest';
import { serveApp } from '../app.ts';
import { TARGETS } from './servers.ts';
import { WITNESSES } from './witnesses.ts';

describe('round seven targets', () => {
  it('has one witness per target and no other', () => {
    expect(Object.keys(WITNESSES).sort()).toEqual(TARGETS.map((t) => t.name).sort());
  });

  for (const target of TARGETS) {
    it(`${target.name}: the witness sees it on the target and not on the faithful app`, async () => {
      const witness = WITNESSES[target.name]!;
      const server = await target.start();
      try {
        await witness(server.url);
      } finally {
        await server.close();
      }
      const faithful = await serveApp();
      try {
        await expect(witness(faithful.url)).rejects.toThrow(/witness did not see/);
      } finally {
        await faithful.close();
      }
    });
  }
});
