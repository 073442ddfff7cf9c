import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, cliInProcess, FIXTURES, readYaml, writeSpecs } from '../__fixtures__/spec-cli.ts';
import { providerDocument } from '../__fixtures__/provider-document.ts';

// Reports read top-down (issue 20): the verdict first, then each operation by its impact on
// clients, then the details in that order; an operation added (which breaks only servers of
// OLD) never opens a report. `compare` says first what it could pair and why the rest is absent.
const BASE = readYaml(join(FIXTURES, 'diff', 'base.yaml'));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('spec diff reports read top-down', () => {
  const edited = () =>
    writeSpecs({
      'old.yaml': BASE,
      'new.yaml': applyEdits(BASE, {
        set: {
          '/paths/~1owners': { get: { operationId: listOwners, summary: 'List owners', responses: { '200': { description: 'The owners.' } } } },
          '/components/schemas/Pet/properties/kind/enum': ['cat', 'dog', 'bird'],
        },
      }),
    });
  const listOwners = 'listOwners';

  it('opens the text report with the verdict, then operations by client impact, and lists an added operation after what breaks clients', async () => {
    const files = edited();
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!]);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Verdict: breaking for clients \(1 change\), breaking for servers \(1 change\)/);
    const byImpact = lines.indexOf('Operations, by impact on clients:');
    expect(byImpact).toBeGreaterThan(0);
    const pets = lines.findIndex((l) => l.includes('GET /pets/{petId}'));
    const owners = lines.findIndex((l) => l.includes('GET /owners'));
    expect(pets).toBeGreaterThan(byImpact);
    expect(owners).toBeGreaterThan(pets);
    expect(lines[owners]).toMatch(/clients: -.*servers: 1 breaking/);
    expect(stdout.indexOf('response-enum-widened')).toBeLessThan(stdout.indexOf('operation-added'));
  });

  it('opens the Markdown report with the verdict and a per-operation table before the details', async () => {
    const files = edited();
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'markdown']);
    expect(stdout.split('\n')[0]).toMatch(/^### Verdict: breaking for clients \(1 change\), breaking for servers \(1 change\)/);
    expect(stdout.indexOf('| operation | clients | servers |')).toBeLessThan(stdout.indexOf('| severity | rule |'));
    expect(stdout.indexOf('`response-enum-widened`')).toBeLessThan(stdout.indexOf('`operation-added`'));
  });

  it('orders the JSON changes by client impact too: an operation added comes after a change breaking clients', async () => {
    const files = edited();
    const { stdout } = await cliInProcess(['spec', 'diff', files['old.yaml']!, files['new.yaml']!, '--format', 'json']);
    const ids = (JSON.parse(stdout) as { changes: { ruleId: string }[] }).changes.map((c) => c.ruleId);
    expect(ids.indexOf('response-enum-widened')).toBeLessThan(ids.indexOf('operation-added'));
  });
});

describe('spec compare reports read top-down', () => {
  it('opens with the verdict, then the operations it paired and why the others are absent, then the findings', async () => {
    const provider = providerDocument(3) as Record<string, unknown>;
    const { theirs } = writeSpecs({ theirs: applyEdits(provider, { remove: ['/paths/~1api~1admin~1service-account~1{id}~1token~1{tokenId}'] }) });
    const { stdout } = await cli(['spec', 'compare', 'spec/openapi.yaml', theirs!], { cwd: ROOT });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Verdict: /);
    const compared = lines.findIndex((l) => l.startsWith('Compared'));
    const absent = lines.findIndex((l) => l.startsWith('Not compared'));
    expect(compared).toBeGreaterThan(0);
    expect(absent).toBeGreaterThan(compared);
    expect(lines[absent + 1]).toBe(`  DELETE /api/admin/service-account/{id}/token/{tokenId}: absent in ${theirs} (no operation with its method and path, nor its operationId "deleteServiceAccountToken")`);
  });
});
