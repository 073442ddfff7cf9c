import { packageFile } from '../package-files.ts';

/** The kit's version, from the package.json it ships with. */
export function kitVersion(): string {
  return (JSON.parse(process.getBuiltinModule('node:fs').readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}
