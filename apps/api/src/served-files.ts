import { readFileSync } from 'node:fs';
import type { Logger } from '@travelops/domain/shared';
import type { ApiConfig } from './config.js';

/**
 * The browser apps' built files the API serves, found where the configuration says
 * (`CONSOLE_DIR`, `WIDGET_SCRIPT`): assets, not code, so the API depends on no other app.
 * `pnpm start` builds both and names them; a deployment names its own copies. Unset, the
 * API starts all the same and answers 404 there, saying the file is not configured.
 */
export function servedFiles(config: Pick<ApiConfig, 'consoleDir' | 'widgetScript'>, logger: Logger) {
  if (config.consoleDir === undefined) {
    logger.info({}, 'CONSOLE_DIR is unset: the operator console (/app/) is not served');
  }
  if (config.widgetScript === undefined) {
    logger.info({}, 'WIDGET_SCRIPT is unset: the booking widget (/widget.js) is not served');
  }
  return {
    consoleDir: config.consoleDir,
    // Read once: one small file, served from memory (gzipped once by packages/http).
    widgetScript: config.widgetScript === undefined ? undefined : readFileSync(config.widgetScript, 'utf8'),
  };
}
