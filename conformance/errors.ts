/** Bad options given to runConformance or `flag-admin check` (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly code = 'CHECK_USAGE';
}
