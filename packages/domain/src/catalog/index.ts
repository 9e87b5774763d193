export * from './availability-schemas.js';
export * from './departure-rules.js';
export * from './departures.js';
export * from './ports.js';
export * from './public-catalog.js';
export * from './ticket-types.js';
export * from './tour-schemas.js';
export * from './tours.js';
