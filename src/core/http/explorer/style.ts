// The explorer page's style sheet: system fonts, the browser's light or dark scheme, visible focus.
export const EXPLORER_STYLE = `
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
fieldset { border: 1px solid var(--line); border-radius: 4px; width: 100%; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
legend { font-weight: 600; font-size: .85rem; }
/* Narrow screens: a condition row wraps, a wide table scrolls inside its own box, not the page. */
.condition { display: flex; flex-wrap: wrap; gap: .4rem; width: 100%; }
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
`;
