export { type Api, createApi, openDatabase, systemClock } from './compose.js';
export { type ApiConfig, ConfigError, loadConfig } from './config.js';
