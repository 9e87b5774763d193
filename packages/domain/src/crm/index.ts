export * from './companies.js';
export * from './customer-schemas.js';
export * from './customers.js';
export * from './leads.js';
export * from './ports.js';
export * from './rules.js';
export * from './schemas.js';
export * from './tasks.js';
