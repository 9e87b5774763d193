export * from './deliveries.js';
export * from './endpoints.js';
export * from './ports.js';
export * from './schemas.js';
