import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Logger } from '@travelops/http';

/**
 * Where the operator console's built files are (apps/console's `dist/`), served at /app/. An
 * asset, not code: the API depends on the console package so that turbo builds it first. Not
 * built (a fresh checkout before `pnpm build`): the API starts without it and says so.
 */
export function findConsoleDir(logger: Logger): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('@travelops/console/index.html'));
  } catch {
    logger.warn({}, 'the operator console is not built (pnpm build): /app/ is not served');
    return undefined;
  }
}
