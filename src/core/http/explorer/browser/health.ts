// Live refresh: the page asks /healthz every two seconds while it is visible. A new snapshot hash
// (`cqa serve --watch` rebuilt the content) reloads the projects and the answer on show; the
// content errors /healthz lists while the server keeps its last good snapshot (`stale: true`)
// are shown at the top of the page, and go away when the files are fixed.
import { api } from './api.js';
import { $, el } from './dom.js';

export const POLL_MS = 2000;
/** The header that marks the page's polls (src/node/server/start.ts does not log them). */
const POLL_HEADER = 'X-CQA-Explorer';

interface Health {
  readonly snapshot: string;
  readonly errors: readonly { file?: string; line?: number; field?: string; message?: string }[];
  readonly total: number;
}

function read(body: unknown): Health | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.snapshot !== 'string') return undefined;
  const errors = b.stale === true && Array.isArray(b.errors) ? (b.errors as Health['errors']) : [];
  return { snapshot: b.snapshot, errors, total: typeof b.errors_total === 'number' ? b.errors_total : errors.length };
}

function showErrors(h: Health | undefined, down: string): void {
  const box = $('content-errors');
  if (down) {
    box.replaceChildren(el('p', { text: down }));
    box.hidden = false;
    return;
  }
  if (!h || h.errors.length === 0) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const items = h.errors.map((e) =>
    el('li', {}, el('code', { text: `${e.file ?? '?'}${e.line ? `:${e.line}` : ''}` }), e.field ? ` ${e.field}: ` : ' ', e.message ?? ''),
  );
  box.replaceChildren(
    el('p', {
      text: `The content has ${h.total} error${h.total === 1 ? '' : 's'}: the server still answers from the last good snapshot. Fix the file${h.total === 1 ? '' : 's'} and this goes away.`,
    }),
    el('ul', {}, ...items),
  );
  if (h.total > h.errors.length)
    box.append(el('p', { text: `… and ${h.total - h.errors.length} more (the server's terminal lists them all).` }));
  box.hidden = false;
}

/** Starts polling; `changed` runs when the snapshot hash changes. */
export function watchHealth(changed: () => Promise<void>): void {
  let last = '';
  let busy = false;
  const tick = async (): Promise<void> => {
    if (!busy && document.visibilityState === 'visible') {
      busy = true;
      try {
        // Marked, so that the server leaves these polls out of its request log and journal.
        const r = await api('/healthz', true, { [POLL_HEADER]: 'poll' });
        const h = r.status === 200 ? read(r.body) : undefined;
        showErrors(
          h,
          h
            ? ''
            : `The server does not answer /healthz (${r.status ? `${r.status} ${r.statusText}` : r.statusText}): the page shows what it last got.`,
        );
        if (h) {
          if (last && h.snapshot !== last) await changed();
          last = h.snapshot;
        }
      } finally {
        busy = false;
      }
    }
    setTimeout(tick, POLL_MS);
  };
  void tick();
}
