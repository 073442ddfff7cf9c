import { createContract, type Contract, type JsonSchema } from '../../contract/neutral.ts';
import { CONTROL_API_DOCUMENT } from './control-api-document.ts';

/** The control API's own contract: its routes, the Rule schema, and in tests the validators of its answers. */
export const controlContract: Contract = createContract(CONTROL_API_DOCUMENT as unknown as JsonSchema, { specFile: '/__mock/openapi.json', lazyValidators: true });
