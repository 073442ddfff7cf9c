import { VARIANT_KIND } from '../plan/variants/variant-kinds.ts';
import type { Exchange } from '../types.ts';

/** Header fields by lower-case name (RFC 9110 §5.1: field names are case-insensitive), for the judges that read a variant against its plain request. */
export const lowerCased = (headers: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** Whether an exchange is a variant of a kind the check `checkId` judges (variant-kinds.ts). */
export const variantJudgedBy = (e: Exchange, checkId: string): boolean => e.variant !== undefined && VARIANT_KIND.get(e.variant.kind)?.check === checkId;
