export { createBookingJobs } from './jobs.js';
export { createJsonLogger, type Logger, type LogLevel, type LogStream } from './logger.js';
export { createWorker, type Job, type Worker, type WorkerOptions } from './worker.js';
