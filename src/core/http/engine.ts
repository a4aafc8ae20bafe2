// The built-in query engine, as the core's QueryEngine.
import { queryEntries, queryEntry, queryMediaItem, queryMediaList } from '../query/index.js';
import type { QueryEngine } from './core.js';

export const defaultEngine: QueryEngine = { queryEntries, queryEntry, queryMediaList, queryMediaItem };
