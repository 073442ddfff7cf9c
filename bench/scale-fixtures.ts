// Fixture files that hold N records of one kind on top of the embedded default state, for the
// scale rows of the bench: does start-up, memory and the cost of one read or delete stay flat
// as the state grows? Each also names the requests that exercise the grown part.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURES_FILE, type MockState } from '../src/mock/index.ts';
import { seededRandom } from '../test/seeded-random.ts';
import { ADMIN_KEY } from './targets.ts';

export const SCALE_KINDS = ['projects', 'tokens', 'keys', 'account-tokens', 'environments'] as const;
export type ScaleKind = (typeof SCALE_KINDS)[number];

export const KIND_LABELS: Record<ScaleKind, string> = {
  projects: 'projects',
  tokens: 'tokens (10 per account)',
  keys: 'API keys',
  'account-tokens': 'tokens in one account',
  environments: 'environments in one project',
};

export interface ScaleFixture {
  file: string;
  /** The key the requests carry. */
  key: string;
  /** A read touching the grown part of the state. */
  readPath: string;
  /** A delete of a token that does not exist, in the largest account. */
  missingDeletePath: string;
  /** Deletes of distinct existing tokens, in an order that defeats any front-of-list shortcut. */
  deletePaths: string[];
}

/** A seeded shuffle (mulberry32), so every run deletes in the same order. */
function shuffle<T>(items: T[], seed = 8): T[] {
  const random = seededRandom(seed);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function writeScaleFixture(dir: string, kind: ScaleKind, n: number): ScaleFixture {
  const state = JSON.parse(readFileSync(DEFAULT_FIXTURES_FILE, 'utf8')) as MockState & { $schema?: string };
  delete state.$schema;
  const template = state.projects[0]!;
  const base = { key: ADMIN_KEY, readPath: `/api/admin/environments/project/${template.id}`, missingDeletePath: '/api/admin/service-account/1/token/missing', deletePaths: [] as string[] };
  let fixture: Omit<ScaleFixture, 'file'> = base;
  const range = (count: number) => Array.from({ length: count }, (_, i) => i);
  switch (kind) {
    case 'projects': {
      // A project as most are: its environment configurations, without default strategies (~250 bytes).
      const environments = template.environments.map(({ defaultStrategy: _strategy, ...config }) => config);
      state.projects.push(...range(n).map((i) => ({ id: `bench-${i}`, name: `Bench ${i}`, environments })));
      fixture = { ...base, readPath: `/api/admin/environments/project/bench-${n - 1}` };
      break;
    }
    case 'tokens': {
      const accounts = Math.ceil(n / 10);
      state.serviceAccounts.push(...range(accounts).map((a) => ({ id: `bench-${a}`, tokens: range(Math.min(10, n - a * 10)).map((t) => ({ id: `t${t}` })) })));
      fixture = { ...base, missingDeletePath: `/api/admin/service-account/bench-${accounts - 1}/token/missing`, deletePaths: shuffle(range(n).map((i) => `/api/admin/service-account/bench-${Math.floor(i / 10)}/token/t${i % 10}`)) };
      break;
    }
    case 'keys':
      state.apiKeys.push(...range(n).map((i) => ({ key: `bench-key-${i}`, permissions: ['*'] })));
      fixture = { ...base, key: `bench-key-${n - 1}` };
      break;
    case 'account-tokens':
      state.serviceAccounts.push({ id: 'bench', tokens: range(n).map((i) => ({ id: `t${i}` })) });
      fixture = { ...base, missingDeletePath: '/api/admin/service-account/bench/token/missing', deletePaths: shuffle(range(n).map((i) => `/api/admin/service-account/bench/token/t${i}`)) };
      break;
    case 'environments':
      for (let i = 0; i < n; i++) state.environments.push({ name: `bench-${i}`, type: 'development', protected: false, sortOrder: i % 1000 });
      state.projects.push({ id: 'bench', environments: range(n).map((i) => ({ name: `bench-${i}`, enabled: true })) });
      fixture = { ...base, readPath: '/api/admin/environments/project/bench' };
      break;
  }
  const file = join(dir, `${kind}-${n}.json`);
  writeFileSync(file, JSON.stringify(state));
  return { ...fixture, file };
}
