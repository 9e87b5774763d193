import { defineBookingElement, ELEMENT_NAME } from './element.js';

// `<script src="{base}/widget.js" data-workspace="SLUG" [data-tour="TOUR_SLUG"]></script>`: the
// API is wherever this script came from; the widget appears right after the script tag. The
// `<travelops-booking>` element works on its own as well, anywhere on the page.
const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const base = script?.src ? new URL('.', script.src).href.replace(/\/+$/, '') : window.location.origin;

defineBookingElement(base);

const workspace = script?.dataset.workspace;
if (script && workspace) {
  const element = document.createElement(ELEMENT_NAME);
  element.setAttribute('workspace', workspace);
  if (script.dataset.tour) element.setAttribute('tour', script.dataset.tour);
  script.after(element);
}
