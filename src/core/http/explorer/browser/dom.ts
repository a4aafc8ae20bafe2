// Small DOM helpers. Every text from the server goes in as text (textContent, attribute values),
// never as HTML: the page has no innerHTML.

/** The element with this id (the page's markup has it; a missing one is a bug of the page). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`explorer: #${id} is missing`);
  return e as T;
}

export type Child = Node | string | null | undefined | false;
/** Attributes; `text` sets the text content; false/undefined leave an attribute out. */
export type Attrs = { readonly text?: string } & { readonly [name: string]: string | boolean | undefined };

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = String(v);
    else if (v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== undefined && c !== null && c !== false) e.append(c);
  return e;
}

/** Options of a <select>, keeping the chosen value when it is still there. */
export function setOptions(select: HTMLSelectElement, options: readonly (readonly [value: string, text: string])[]): void {
  const before = select.value;
  select.replaceChildren(...options.map(([value, text]) => el('option', { value, text })));
  if (options.some(([v]) => v === before)) select.value = before;
}

/** Copies text to the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // An insecure origin (not localhost, not https) has no async clipboard: the old way.
    const area = el('textarea', { 'aria-hidden': 'true', class: 'offscreen' });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
