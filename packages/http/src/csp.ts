import { createHash } from 'node:crypto';

/** `'sha256-...'` of an inline `<style>` body: the page may use exactly that text and nothing else. */
export const cspHash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export interface PagePolicy {
  /** Served over https (PUBLIC_BASE_URL): then, and only then, upgrade insecure requests. */
  https: boolean;
  /** Inline `<style>` bodies the page carries, allowed by hash. */
  inlineStyles?: readonly string[];
  /** Scripts and styles served as files by this service (`'self'`). */
  selfAssets?: boolean;
  /** Whether the page posts a form to its own origin (the sandbox checkout). */
  formToSelf?: boolean;
}

/**
 * The Content-Security-Policy of an HTML page we serve: nothing from elsewhere, no inline
 * script at all, inline styles only by hash. `upgrade-insecure-requests` only on https: on a
 * plain-http host (a LAN address, a dev VM) it would turn the sandbox form's own target into
 * https, which `form-action 'self'` then blocks, and Pay would do nothing.
 */
export function pagePolicy(policy: PagePolicy): string {
  const styles = [...(policy.selfAssets ? ["'self'"] : []), ...(policy.inlineStyles ?? []).map(cspHash)];
  return [
    "default-src 'none'",
    `script-src ${policy.selfAssets ? "'self'" : "'none'"}`,
    "script-src-attr 'none'",
    `style-src ${styles.length ? styles.join(' ') : "'none'"}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    `form-action ${policy.formToSelf ? "'self'" : "'none'"}`,
    "frame-ancestors 'none'",
    ...(policy.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
