export * from './enums.js';
export * from './errors.js';
export * from './ids.js';
export * from './money.js';
export * from './ports.js';
export * from './result.js';
export * from './schemas.js';
export * from './validation.js';
