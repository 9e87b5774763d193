/**
 * The widget's one style sheet, inside its Shadow DOM. The host page's rules cannot reach in;
 * what is inherited through the host element (font, colour, a huge `font-size`, `all: unset`) is
 * reset at `:host` with `!important`, which beats the page's rules there. Sizes are in `em` of
 * the host's 16px, never `rem` (the page's root font size).
 */
export const WIDGET_CSS = `
:host{all:initial!important;display:block!important;box-sizing:border-box!important;visibility:visible!important;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif!important;
color:#1b1f24!important;text-align:left!important;letter-spacing:normal!important;word-spacing:normal!important;
text-transform:none!important;direction:ltr!important;max-width:36em!important;margin:0 auto!important}
:host([hidden]){display:none!important}
*,*::before,*::after{box-sizing:border-box}
.widget{background:#fff;border:1px solid #c9d0d8;border-radius:10px;padding:1em 1.25em;color:#1b1f24}
h2{font-size:1.3em;line-height:1.25;margin:0}
h3{font-size:1.05em;margin:.75em 0 .4em}
p{margin:.5em 0}
ul{list-style:none;margin:0;padding:0}
.step{font-size:.85em;color:#4a525b;margin:.1em 0 .75em}
.muted{color:#4a525b;font-size:.9em}
button{font:inherit;font-weight:600;cursor:pointer;border-radius:6px;border:1px solid #0a58a8;background:#0a58a8;color:#fff;padding:.5em 1em;line-height:1.3}
button.secondary{background:#fff;color:#0a58a8}
button:disabled{cursor:not-allowed;background:#e9ecef;border-color:#c9d0d8;color:#5b636b}
button:focus-visible,input:focus-visible,h2:focus-visible{outline:3px solid #b45309;outline-offset:2px}
h2:focus{outline:none}
.choices{display:grid;gap:.5em}
.choice{width:100%;display:flex;justify-content:space-between;align-items:center;gap:1em;text-align:left;background:#fff;color:#1b1f24;border-color:#c9d0d8;font-weight:400}
.choice strong{font-weight:700}
.choice:hover:not(:disabled){border-color:#0a58a8}
.month{display:flex;justify-content:space-between;align-items:center;gap:.5em;margin:.25em 0 .5em}
.month h3{margin:0;text-align:center;flex:1}
.month button{padding:.35em .7em}
table{border-collapse:collapse;width:100%;table-layout:fixed}
th{font-size:.8em;font-weight:600;color:#4a525b;padding:.25em 0;text-align:center}
td{padding:2px;text-align:center}
.day{width:100%;min-height:3.3em;padding:.2em .1em;display:flex;flex-direction:column;align-items:center;justify-content:center;
background:#fff;color:#1b1f24;border-color:#c9d0d8;font-weight:600}
.day small{font-size:.68em;font-weight:400;color:#1b1f24;white-space:nowrap;overflow:hidden;max-width:100%}
.day.AVAILABLE{background:#e3f3e8;border-color:#7fbf95}
.day.LIMITED{background:#fff1cc;border-color:#d9a93a}
.day[aria-pressed="true"]{background:#0a58a8;border-color:#0a58a8;color:#fff}
.day[aria-pressed="true"] small{color:#fff}
.day:disabled{background:#f6f7f8;border-color:#e3e7eb;color:#5b636b}
.day:disabled small{color:#5b636b}
.legend{display:flex;gap:1em;font-size:.85em;color:#4a525b;margin:.5em 0 0}
.legend span::before{content:"";display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.35em;vertical-align:-.05em;border:1px solid #7fbf95;background:#e3f3e8}
.legend span.LIMITED::before{border-color:#d9a93a;background:#fff1cc}
.row{display:flex;align-items:center;justify-content:space-between;gap:.75em;padding:.6em 0;border-bottom:1px solid #e3e7eb}
.row:last-child{border-bottom:0}
.stepper{display:flex;align-items:center;gap:.4em;flex:none}
.stepper button{width:2.3em;height:2.3em;padding:0;font-size:1.1em}
.count{min-width:1.6em;text-align:center;font-weight:700}
.total{font-size:1.1em;font-weight:700;margin:.75em 0 0}
label{display:block;font-weight:600;margin:.7em 0 .2em}
input{font:inherit;width:100%;padding:.45em .6em;border:1px solid #6b7580;border-radius:6px;background:#fff;color:#1b1f24}
fieldset{border:1px solid #e3e7eb;border-radius:8px;margin:.75em 0;padding:.25em .9em .8em}
legend{font-weight:700;padding:0 .3em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em .9em;margin:.5em 0}
dt{font-weight:600}dd{margin:0}
.alert{border-left:4px solid #b42318;background:#fdeceb;padding:.5em .75em;margin:.75em 0}
.alert ul{list-style:disc;padding-left:1.2em}
.note{border-left:4px solid #0a58a8;background:#eaf2fb;padding:.5em .75em;margin:.75em 0}
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.actions{display:flex;flex-wrap:wrap;gap:.5em;justify-content:space-between;align-items:center;margin-top:1em}
`;
