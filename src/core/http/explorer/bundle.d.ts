// The browser scripts of the explorer (browser/main.ts) and of the API reference page
// (browser/reference.ts), each bundled into one string by scripts/build-browser.mjs: at build time
// into lib/core/http/explorer/bundle.js (`npm run build:ts`), and when vitest imports the sources,
// by the plugin in vitest.config.ts. See docs/development.md#the-explorers-browser-code.
export declare const EXPLORER_SCRIPT: string;
export declare const REFERENCE_SCRIPT: string;
