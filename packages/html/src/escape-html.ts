const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text for HTML, in an element or a quoted attribute: every character that could open markup
 * or leave the attribute is escaped. The one copy the pages (packages/http) and the guest
 * e-mails (packages/jobs) share, so a fix reaches both.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
