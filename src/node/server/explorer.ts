// The explorer as the Node servers serve it (startServer, the main entry's createHandler): with
// the API reference page at /reference, Swagger UI's files read from the package on first use.
import { createExplorerPage, type ExplorerPage } from '../../core/http/explorer/index.js';
import { referenceAssets } from './reference-assets.js';

let page: ExplorerPage | undefined;

export function nodeExplorer(): ExplorerPage {
  page ??= createExplorerPage({ reference: referenceAssets });
  return page;
}
