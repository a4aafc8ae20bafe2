// The content loader's public surface.
export { createContentLoader, loadContent, type ContentLoader, type LoadOptions, type LoadResult } from './load.js';
export { ContentError, formatIssue } from './issues.js';
