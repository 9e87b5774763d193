export { escapeHtml } from './escape-html.js';
