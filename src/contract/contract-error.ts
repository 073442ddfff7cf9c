/**
 * Broken set-up: a spec, fixture or config that cannot be used. Carries what a user needs to
 * fix it: the file, the JSON pointer into it, and what was expected there.
 */
export class ContractError extends Error {
  override name = 'ContractError';
  readonly code: string;
  readonly file: string;
  readonly pointer: string;
  readonly expected: string;

  constructor(code: string, details: { file: string; pointer?: string; expected: string; got?: string }) {
    const where = details.pointer ? `${details.file}#${details.pointer}` : details.file;
    super(`${where}: expected ${details.expected}${details.got === undefined ? '' : `, got ${details.got}`}`);
    this.code = code;
    this.file = details.file;
    this.pointer = details.pointer ?? '';
    this.expected = details.expected;
  }
}
