// turndown-plugin-gfm ships no types: the one plugin src/node/pull/richtext.ts uses.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const tables: TurndownService.Plugin;
}
