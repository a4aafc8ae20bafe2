// The explorer page's style sheet: system fonts, the browser's light or dark scheme, visible focus;
// and the few rules the API reference page adds to Swagger UI's own.
export const EXPLORER_STYLE: string = `
:root { color-scheme: light dark; --line: #8884; --accent: #2563eb; --bad: #c0262d; --good: #15803d; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.25rem 3rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem 1.5rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.35rem; margin: .5rem 0; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
nav a { margin-right: 1rem; }
a, button.link { color: var(--accent); }
code, pre, input, select { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9rem; }
pre { background: #8881; border: 1px solid var(--line); border-radius: 4px; padding: .6rem .75rem; overflow: auto; max-height: 32rem; white-space: pre-wrap; word-break: break-word; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.meta, .hint { color: GrayText; margin: .1rem 0 .4rem; }
.error { color: var(--bad); }
.ok { color: var(--good); }
form { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; }
label { display: flex; flex-direction: column; gap: .15rem; font-weight: 600; font-size: .85rem; max-width: 100%; }
label.inline { flex-direction: row; align-items: center; font-weight: normal; }
fieldset { border: 1px solid var(--line); border-radius: 4px; width: 100%; min-width: 0; margin-inline: 0; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
legend { font-weight: 600; font-size: .85rem; }
/* Narrow screens: a condition row wraps, a wide table scrolls inside its own box, not the page. */
.condition { display: flex; flex-wrap: wrap; align-items: start; gap: .4rem; width: 100%; }
.condition select.field, .condition select.relation { flex: 0 1 17rem; }
.condition select.op { flex: 0 1 13rem; }
.condition select { min-width: 0; max-width: 100%; }
.condition .value { flex: 1 1 10rem; min-width: 0; }
.scroll { overflow-x: auto; max-width: 100%; }
input, select { max-width: 100%; }
input, select, button { padding: .3rem .45rem; border: 1px solid var(--line); border-radius: 4px; background: Field; color: FieldText; }
input[type=checkbox], input[type=radio] { padding: 0; }
button { cursor: pointer; font: inherit; }
button[type=submit] { background: var(--accent); color: #fff; border-color: var(--accent); }
button.link { background: none; border: none; padding: 0; text-decoration: underline; font-family: ui-monospace, Menlo, Consolas, monospace; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#token { min-width: min(20rem, 100%); }
button:disabled, fieldset:disabled button, fieldset:disabled input, fieldset:disabled select { opacity: .45; cursor: not-allowed; }
button[type=submit]:disabled { background: GrayText; border-color: GrayText; }
fieldset:disabled legend { color: GrayText; }
fieldset.plain { border: none; padding: 0; margin: 0; }
#pick-fields { display: flex; flex-wrap: wrap; gap: .2rem .9rem; }
.condition.missing select.field, .condition.missing select.relation { outline: 2px solid var(--bad); }
.condition .note { flex-basis: 100%; margin: 0; font-size: .85rem; }
.condition .value-box { display: flex; flex: 1 1 10rem; min-width: 0; }
.condition .value-box .value { width: 100%; }
option.missing { color: var(--bad); }
/* Content errors stay in sight while the page scrolls: they are why an answer may be out of date. */
#content-errors { position: sticky; top: 0; z-index: 1; background: Canvas; border: 2px solid var(--bad); border-radius: 4px; padding: .3rem .9rem; margin: .75rem 0; max-height: 40vh; overflow: auto; }
#content-errors p:first-child { font-weight: 600; color: var(--bad); }
.copyable { display: flex; gap: .5rem; align-items: start; }
.copyable pre { flex: 1 1 auto; min-width: 0; margin: 0; }
.copyable button { flex: none; }
#summary { font-weight: 600; }
table.entries td { white-space: nowrap; max-width: 24rem; overflow: hidden; text-overflow: ellipsis; }
#table { max-height: 40rem; overflow: auto; }
.many { display: inline-flex; gap: .2rem .6rem; }
.dim { color: GrayText; }
a.media { display: inline-flex; align-items: center; gap: .35rem; }
img.thumb { width: 48px; height: 48px; object-fit: cover; border-radius: 3px; border: 1px solid var(--line); }
#headers th { white-space: nowrap; }
.offscreen { position: absolute; left: -9999px; width: 1px; height: 1px; overflow: hidden; }
`;

export const REFERENCE_STYLE: string = `
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header, section.token { max-width: 1460px; margin: 0 auto; padding: .5rem 20px; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem 1.5rem; }
header h1 { font-size: 1.35rem; margin: .5rem 0; }
nav a { margin-right: 1rem; }
form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
label { display: flex; flex-direction: column; font-weight: 600; font-size: .85rem; }
input, button { font: inherit; padding: .3rem .45rem; }
.hint { color: GrayText; margin: .25rem 0; font-size: .85rem; }
:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
#token { min-width: min(20rem, 100%); }
/* No "Try it out" here (the explorer runs queries), so no Authorize dialog either: the token field above is the one. */
.swagger-ui .auth-wrapper, .swagger-ui .authorization__btn { display: none; }
`;
