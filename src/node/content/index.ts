// The content loader's public surface.
export { createContentLoader, loadContent, type ContentLoader, type LoadOptions, type LoadResult } from './load.js';
export { ContentError } from './issues.js';
