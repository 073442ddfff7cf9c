import { dirname, resolve } from 'node:path';
import { ContractError, pointerOf, readJsonFile } from '../src/contract/index.ts';
import { parseToken } from './token-ref.ts';
import type { TokenRef } from './types.ts';

/** `--config FILE`: the command's options as JSON, named as in runConformance's options. */
export interface CheckConfig {
  baseUrl?: string;
  apiKey?: string;
  restrictedKey?: string | string[];
  forbidden?: string[];
  project?: string | string[];
  missingProject?: string;
  tokens?: TokenRef[];
  allowDelete?: boolean;
  strict?: boolean;
  timeout?: number;
  maxBody?: number;
  settleMs?: number;
  spec?: string;
  seed?: string;
  skipChecks?: string[];
  randomSteps?: number;
  junit?: string;
  json?: string;
  timings?: boolean;
  failOnNotChecked?: boolean;
}

type FieldKind = 'string' | 'string-or-strings' | 'secret' | 'secrets' | 'boolean' | 'timeout' | 'milliseconds' | 'bytes' | 'steps' | 'strings' | 'tokens' | 'path';

/** Every field and its kind; a path is resolved against the config file's folder. */
const FIELDS: Readonly<Record<keyof CheckConfig, FieldKind>> = {
  baseUrl: 'string',
  apiKey: 'secret',
  restrictedKey: 'secrets',
  forbidden: 'strings',
  project: 'string-or-strings',
  missingProject: 'string',
  tokens: 'tokens',
  allowDelete: 'boolean',
  strict: 'boolean',
  timeout: 'timeout',
  maxBody: 'bytes',
  settleMs: 'milliseconds',
  spec: 'path',
  seed: 'string',
  skipChecks: 'strings',
  randomSteps: 'steps',
  junit: 'path',
  json: 'path',
  timings: 'boolean',
  failOnNotChecked: 'boolean',
};

/** Reads and checks a config file; a bad field throws a ContractError naming the file, the JSON pointer and what was expected. */
export function readCheckConfig(file: string): CheckConfig {
  // A syntax error names the line and column, never the text around it (it may hold a key).
  // A config is a few options: a file of megabytes is a wrong path, refused before it is read.
  const value = readJsonFile(file, { kind: 'CONFIG', what: 'a readable JSON config file', maxBytes: 2 ** 20 });
  const fail = (pointer: string, expected: string, got?: unknown): never => {
    throw new ContractError('CONFIG_INVALID', { file, pointer, expected, got: got === undefined ? undefined : JSON.stringify(got) });
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('', 'an object of options');
  const config: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    const kind = FIELDS[name as keyof CheckConfig];
    const at = pointerOf([name]);
    if (!kind) fail(at, `one of the options ${Object.keys(FIELDS).join(', ')}`);
    switch (kind) {
      case 'string':
      case 'path':
        if (typeof field !== 'string' || field === '') fail(at, 'a non-empty string', field);
        config[name] = kind === 'path' ? resolve(dirname(file), field as string) : field;
        break;
      case 'string-or-strings':
        if (Array.isArray(field)) {
          if (field.length === 0) fail(at, 'a non-empty string or a non-empty array of them', field);
          field.forEach((item, i) => (typeof item !== 'string' || item === '') && fail(pointerOf([name, i]), 'a non-empty string', item));
        } else if (typeof field !== 'string' || field === '') fail(at, 'a non-empty string or an array of them', field);
        config[name] = field;
        break;
      case 'secret':
        // Never echo what was found: it may be a key.
        if (typeof field !== 'string' || field === '') fail(at, 'a non-empty string (better: the environment variable)');
        config[name] = field;
        break;
      case 'secrets':
        if (Array.isArray(field)) field.forEach((item, i) => (typeof item !== 'string' || item === '') && fail(pointerOf([name, i]), 'a non-empty string'));
        else if (typeof field !== 'string' || field === '') fail(at, 'a non-empty string or an array of them (better: the environment variable)');
        config[name] = field;
        break;
      case 'milliseconds':
        if (!Number.isInteger(field) || (field as number) < 0) fail(at, 'an integer of milliseconds, 0 or more', field);
        config[name] = field;
        break;
      case 'boolean':
        if (typeof field !== 'boolean') fail(at, 'true or false', field);
        config[name] = field;
        break;
      case 'timeout':
        if (!Number.isInteger(field) || (field as number) < 1) fail(at, 'a positive integer of milliseconds', field);
        config[name] = field;
        break;
      case 'bytes':
        if (!Number.isSafeInteger(field) || (field as number) < 1) fail(at, 'a positive integer of bytes', field);
        config[name] = field;
        break;
      case 'steps':
        if (!Number.isSafeInteger(field) || (field as number) < 0) fail(at, 'a number of requests, 0 or more', field);
        config[name] = field;
        break;
      case 'strings':
        if (!Array.isArray(field)) fail(at, 'an array of strings', field);
        (field as unknown[]).forEach((item, i) => typeof item !== 'string' && fail(pointerOf([name, i]), 'a string', item));
        config[name] = field;
        break;
      case 'tokens':
        if (!Array.isArray(field)) fail(at, 'an array of "ACCOUNT/TOKEN" strings', field);
        config[name] = (field as unknown[]).map((item, i) => parseToken(item) ?? fail(pointerOf([name, i]), 'a string "ACCOUNT/TOKEN", e.g. "1/2"', item));
        break;
    }
  }
  return config as CheckConfig;
}
