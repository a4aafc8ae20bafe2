// @mixmark-io/domino's own .d.ts declares a module named 'domino'; this names it as it is imported.
declare module '@mixmark-io/domino' {
  export function createDocument(html?: string, force?: boolean): Document;
}
