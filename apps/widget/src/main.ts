import { defineBookingElement, ELEMENT_NAME } from './element.js';

// `<script src="{base}/widget.js" data-workspace="SLUG" [data-tour="TOUR_SLUG"]></script>`: the
// API is wherever this script came from; the widget appears right after the script tag. The
// `<travelops-booking>` element works on its own as well, anywhere on the page.
const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const base = script?.src ? new URL('.', script.src).href.replace(/\/+$/, '') : window.location.origin;

defineBookingElement(base);

/**
 * Where the widget goes: right after its script when that is in the page's body; a script in
 * `<head>` (where a lone tag saved as a file lands, and where many sites load scripts) would put
 * it where nothing renders, so it goes at the end of the body instead, once there is one.
 */
function place(element: HTMLElement, after: HTMLScriptElement) {
  if (document.body?.contains(after)) return after.after(element);
  if (document.body) return document.body.append(element);
  document.addEventListener('DOMContentLoaded', () => document.body.append(element), { once: true });
}

const workspace = script?.dataset.workspace;
if (script && workspace) {
  const element = document.createElement(ELEMENT_NAME);
  element.setAttribute('workspace', workspace);
  if (script.dataset.tour) element.setAttribute('tour', script.dataset.tour);
  place(element, script);
}
