import { packageFile } from '../package-files.ts';
import { ContractError } from './contract-error.ts';
import { createContract, firstLine, type Contract } from './create-contract.ts';
import { readParsedSpec } from './parsed-spec.ts';
import { readPrecompiledValidators } from './precompiled-validators.ts';
import type { JsonSchema } from './schema-validator.ts';

// Node only: reads the spec from a file with swagger-parser. A browser builds the same Contract
// from a document value with createContract (create-contract.ts).

export const DEFAULT_SPEC_FILE = packageFile('spec', 'openapi.yaml');

export interface LoadContractOptions {
  /** The OpenAPI 3.1 document. Default: the kit's own `spec/openapi.yaml`. */
  specFile?: string;
  /**
   * Validate the document against the OpenAPI 3.1 schema first (about 100 ms). The mock skips
   * it for its own spec, which the test suite validates.
   * @default true
   */
  validate?: boolean;
  /**
   * Compile each response validator on its first use instead of at load (still once). The mock
   * sets it: it validates its responses only under self-check, and starts ~100 ms sooner.
   * @default false
   */
  lazyValidators?: boolean;
  /**
   * Without validation, start from spec/openapi.parsed.json when it was made from exactly this
   * file's text: no swagger-parser import, no YAML parse (src/contract/parsed-spec.ts).
   * @default true
   */
  parsedSpec?: boolean;
}

export type { Contract };

export async function loadContract(options: LoadContractOptions = {}): Promise<Contract> {
  const specFile = options.specFile ?? DEFAULT_SPEC_FILE;
  if (options.validate === false && options.parsedSpec !== false) {
    const parsed = readParsedSpec(specFile);
    // A document the caller vouches for (the kit's own, which its tests validate and compile): its schemas are not checked against the meta-schema again.
    // Its validators too, compiled ahead of time for exactly this text (./precompiled-validators.ts): no Ajv at run time.
    if (parsed) return createContract(parsed.document, { specFile, lazyValidators: options.lazyValidators, validateSchemas: false, precompiled: readPrecompiledValidators(parsed.sha256) });
  }
  // Loaded only here: importing swagger-parser alone takes longer than the mock's whole start.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  let rawDocument: JsonSchema;
  let document: JsonSchema;
  try {
    rawDocument = (await SwaggerParser.parse(specFile)) as unknown as JsonSchema;
  } catch (error) {
    throw new ContractError('SPEC_UNREADABLE', { file: specFile, expected: 'a readable OpenAPI 3.1 document (YAML or JSON)', got: firstLine(error) });
  }
  if (typeof rawDocument.openapi !== 'string' || !rawDocument.openapi.startsWith('3.1.')) {
    throw new ContractError('SPEC_VERSION', { file: specFile, pointer: '/openapi', expected: 'an OpenAPI 3.1.x document', got: JSON.stringify(rawDocument.openapi) });
  }
  try {
    const copy = structuredClone(rawDocument) as never;
    document = (options.validate === false ? await SwaggerParser.dereference(specFile, copy, {}) : await SwaggerParser.validate(specFile, copy, {})) as unknown as JsonSchema;
  } catch (error) {
    // swagger-parser's own message is only "Swagger schema validation failed."; what is wrong is in details.
    const detail = (error as { details?: { instancePath?: string; message?: string }[] }).details?.[0];
    throw new ContractError('SPEC_INVALID', {
      file: specFile,
      pointer: detail?.instancePath,
      expected: detail?.message ? `a valid OpenAPI 3.1 document, where this value ${detail.message}` : 'a valid OpenAPI 3.1 document',
      got: detail?.message ? undefined : firstLine(error),
    });
  }
  return createContract(rawDocument, { specFile, dereferenced: document, lazyValidators: options.lazyValidators, validateSchemas: options.validate !== false });
}
