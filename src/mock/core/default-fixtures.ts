import defaults from '../../../fixtures/default.json' with { type: 'json' };
import type { MockState } from './state.ts';

/**
 * The embedded default state (fixtures/default.json) as a value, so the core has it without a
 * file system. Every Store clones what it is given, so this object is never changed.
 */
export const DEFAULT_FIXTURES = defaults as MockState;
