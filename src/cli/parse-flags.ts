import type { ParseArgsConfig } from 'node:util';
import { didYouMean } from './did-you-mean.ts';
import { UsageError } from './io.ts';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs in strict mode, with its errors turned into one short UsageError line
 * that names the flag and, for a mistyped one, the flag meant: `unknown option --prot (did you
 * mean --port?)`. Every command parses its flags through this, so they all answer alike.
 * @example parseFlags(argv, { port: { type: 'string', short: 'p' } }).values.port
 */
export function parseFlags<T extends FlagOptions>(argv: string[], options: T, { positionals = false } = {}) {
  try {
    // The CommonJS module: an ESM import of node:util builds its whole namespace, which loads worker_threads and util.diff.
    return process.getBuiltinModule('node:util').parseArgs({ args: withNegativeValues(argv, options), options, strict: true, allowPositionals: positionals });
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }, argv, options));
  }
}

/**
 * `--max-sessions -1`: parseArgs reads "-1" as an option and can say only "expects a value". A
 * negative number after a flag that takes a value is that value (no flag is a digit), so it is
 * passed as `--max-sessions=-1` and the flag's own check says what is wrong with it.
 */
function withNegativeValues(argv: string[], options: FlagOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const name = arg.startsWith('--') ? arg.slice(2) : /^-[^-]$/.test(arg) ? Object.keys(options).find((n) => options[n]!.short === arg[1]) : undefined;
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function describeParseError(error: Error & { code?: string }, argv: string[], options: FlagOptions): string {
  const names = Object.keys(options);
  const flagNames = names.map((n) => `--${n}`);
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const typed = /'([^']+)'/.exec(error.message)?.[1] ?? '';
      const bare = typed.replace(/^-+/, '').split('=')[0]!;
      const meant = typed.startsWith('--') || bare.length > 1 ? didYouMean(`--${bare}`, flagNames) : undefined;
      return `unknown option ${typed}${meant ? ` (did you mean ${meant}?)` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = names.find((n) => error.message.includes(`--${n}`));
      if (flag && options[flag]!.type === 'string') return `--${flag} expects a value`;
      if (flag) return `--${flag} takes no value`;
      return error.message;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const word = /'([^']*)'/.exec(error.message)?.[1] ?? argv.find((a) => !a.startsWith('-')) ?? '';
      return `unexpected argument ${JSON.stringify(word)}`;
    }
    default:
      return error.message;
  }
}
