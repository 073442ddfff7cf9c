const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * `--max-body`: a count of bytes, optionally with a binary unit (`512k`, `4M`, `4MiB`, `4MB`).
 * Null when the text is not one.
 * @example parseByteSize('4M') // 4194304
 */
export function parseByteSize(text: string): number | null {
  const match = /^(\d+)\s*([kmg]?)(?:i?b)?$/i.exec(text.trim());
  if (!match) return null;
  const bytes = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : null;
}
