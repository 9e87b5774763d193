// @travelops/logging: the JSON (or pretty) line logger behind the domain's Logger port, for
// every app and the CLI.
export {
  coalescedStream,
  createJsonLogger,
  defaultLogFormat,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogLevel,
  /** @public createJsonLogger's argument: where the lines go (the CLI passes stderr). */
  type LogStream,
} from './logger.js';
