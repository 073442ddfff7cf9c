// The red team's rounds, judged through the real CLI process: every broken target must end
// `flag-admin check` with exit 1 and at least one error finding, every conformant one with exit 0.
// Targets the suite gets wrong today are listed in the round's known-misses.json; a round's tests
// fail both when a listed target is now judged right (so the list shrinks as the suite improves)
// and when one not listed is judged wrongly (a regression, or a new miss).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FULL_KEY, RESTRICTED_KEY, serveApp } from './app.ts';
import { runCheck } from './run-check.ts';
import type { RedTeamTarget } from './servers.ts';

interface KnownMisses {
  missed: string[];
  falseAlarms: string[];
  /** Broken targets whose defect appears only after a delay: name → why. */
  eitherVerdict: Record<string, string>;
}

/**
 * The tests of one round: `targets` (a round's servers.ts) judged by `flag-admin check` against
 * that round's known-misses.json, so each round keeps its own list.
 */
export function describeRound(round: string, targets: readonly RedTeamTarget[], knownMisses: URL): void {
  const known = JSON.parse(readFileSync(knownMisses, 'utf8')) as KnownMisses;
  const TARGETS = targets;
  describe(`red team round ${round}: flag-admin check on targets written without reading the suite`, () => {
    it('names in known-misses.json are targets, each once, missed ones broken and false alarms conformant', () => {
      const byName = new Map(TARGETS.map((t) => [t.name, t]));
      expect(byName.size).toBe(TARGETS.length);
      const listed = [...known.missed, ...known.falseAlarms, ...Object.keys(known.eitherVerdict)];
      expect(new Set(listed).size).toBe(listed.length);
      expect([...known.missed, ...Object.keys(known.eitherVerdict)].filter((n) => byName.get(n)?.broken !== true)).toEqual([]);
      expect(known.falseAlarms.filter((n) => byName.get(n)?.broken !== false)).toEqual([]);
    });

    it('exits 0 on the faithful app every target is built from (the control)', async () => {
      const outcome = await runCheck({ name: 'faithful-app', broken: false, description: 'the app with nothing replaced', start: () => serveApp() });
      expect({ exitCode: outcome.exitCode, errorChecks: outcome.errorChecks }).toEqual({ exitCode: 0, errorChecks: [] });
    }, 200_000);

    for (const target of TARGETS) {
      const knownWrong = (target.broken ? known.missed : known.falseAlarms).includes(target.name);
      const delayed = known.eitherVerdict[target.name];
      const behaviour = target.broken ? 'exits 1 with an error finding' : 'exits 0';
      const note = knownWrong ? ' (known to fail today)' : delayed ? ' (or 0: whether the run sees the defect depends on timing or on which connection the client reuses)' : '';
      // Concurrent (vitest's maxConcurrency, 5 at a time): a run spends most of its time waiting (settle times, a
      // target's deliberate delays, time-outs), not computing, so a round's wall time is its slowest targets', not their sum.
      it.concurrent(`${behaviour}${note} on ${target.name}: ${target.description}`, async ({ expect }) => {
        const outcome = await runCheck(target);
        const seen = { exitCode: outcome.exitCode, errorChecks: outcome.errorChecks, tail: outcome.tail };
        if (delayed) {
          // Either verdict, but a verdict: no set-up error, and exit 1 only with an error finding.
          expect(outcome.exitCode === 0 || outcome.expected, `neither a clean pass nor a reported defect (${JSON.stringify(seen)})`).toBe(true);
        } else if (knownWrong) {
          expect(outcome.expected, `judged right now (${JSON.stringify(seen)}): take ${target.name} off known-misses.json`).toBe(false);
        } else {
          expect(outcome.expected, `judged wrongly (${JSON.stringify(seen)})`).toBe(true);
        }
      }, 200_000);
    }
  });
}

/**
 * A round's targets themselves, without the suite: every witness sees its defect (or its unusual
 * behaviour) on its target and nothing on the faithful app, so a target the suite passes is a fair
 * miss and the faithful app carries none of the defects. A witness throws "witness did not see …".
 */
export function describeWitnesses(round: string, targets: readonly RedTeamTarget[], witnesses: Record<string, (base: string) => Promise<void>>): void {
  describe(`round ${round} targets`, () => {
    it('has one witness per target and no other', () => {
      expect(Object.keys(witnesses).sort()).toEqual(targets.map((t) => t.name).sort());
    });

    for (const target of targets) {
      it(`${target.name}: the witness sees it on the target and not on the faithful app`, async () => {
        const witness = witnesses[target.name]!;
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
}

/** A round's witness client, as far as the ordinary requests need it. */
type Ask = (base: string, path: string, options?: { method?: string; key?: string }) => Promise<{ status: number }>;

/** Each conformant target of a round answers the ordinary requests as the spec says (the faithful app's statuses). */
export function describeOrdinaryAnswers(round: string, targets: readonly RedTeamTarget[], ask: Ask): void {
  describe(`round ${round} conformant targets`, () => {
    for (const target of targets.filter((t) => !t.broken)) {
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
}
