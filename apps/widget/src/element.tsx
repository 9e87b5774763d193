import { render } from 'preact';
import { createWidgetApi } from './api.js';
import { BookingWidget } from './components/booking-widget.js';
import { createCache } from './resource.js';
import { WIDGET_CSS } from './styles.js';

export const ELEMENT_NAME = 'travelops-booking';

/**
 * The style sheet of every widget on the page. A constructed sheet, not a `<style>` element:
 * the host page's Content-Security-Policy may forbid inline styles, and it does not govern these.
 */
function adoptStyles(root: ShadowRoot) {
  if (
    'adoptedStyleSheets' in root &&
    typeof CSSStyleSheet !== 'undefined' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = WIDGET_CSS;
  root.appendChild(style);
}

/**
 * `<travelops-booking workspace="SLUG" [tour="TOUR_SLUG"] [api="https://..."]>`: the widget in a
 * Shadow DOM of its own, so the page's CSS cannot reach it and its CSS cannot reach the page.
 * `api` defaults to where the script was loaded from.
 */
export function defineBookingElement(defaultBase: string) {
  if (customElements.get(ELEMENT_NAME)) return;
  class TravelOpsBooking extends HTMLElement {
    static get observedAttributes() {
      return ['workspace', 'tour', 'api'];
    }
    private mount: ShadowRoot | null = null;
    private key = '';

    connectedCallback() {
      this.update();
    }

    attributeChangedCallback() {
      if (this.isConnected) this.update();
    }

    disconnectedCallback() {
      if (this.mount) render(null, this.mount);
      this.key = '';
    }

    private update() {
      const workspace = this.getAttribute('workspace');
      if (!workspace) return;
      const base = (this.getAttribute('api') ?? defaultBase).replace(/\/+$/, '');
      const tour = this.getAttribute('tour');
      const key = `${base}|${workspace}|${tour ?? ''}`;
      if (key === this.key) return;
      this.key = key;
      if (!this.mount) {
        this.mount = this.attachShadow({ mode: 'open' });
        adoptStyles(this.mount);
      }
      const container = this.mount;
      render(null, container);
      render(
        <BookingWidget
          api={createWidgetApi(base, workspace)}
          cache={createCache()}
          tourSlug={tour}
          navigate={(url) => window.location.assign(url)}
        />,
        container,
      );
    }
  }
  customElements.define(ELEMENT_NAME, TravelOpsBooking);
}
