/** Bad options given to runConformance or `flag-admin check` (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly code = 'CHECK_USAGE';
}

/** The first request could not connect: nothing was judged (exit 3). */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
  readonly code = 'CHECK_TARGET_UNREACHABLE';
}
