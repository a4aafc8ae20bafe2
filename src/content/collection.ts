// One collection folder → a CollectionRecord: its schema (declared or inferred), every entry,
// duplicate ids, and the default order.
import type { CollectionRecord, EntryRecord, FieldDef } from '../snapshot/model.js';
import { sortEntries } from '../snapshot/order.js';
import { buildEntry, baseName, type EntryContext } from './entries.js';
import type { CollectionLayout, FileInfo } from './files.js';
import { idProblem } from './identifiers.js';
import type { IssueList } from './issues.js';
import type { ParsedEntry } from './parse.js';
import type { ProjectConfig } from './project.js';
import { inferFields, readSort, type CollectionConfig } from './schema.js';
import type { RenderMarkdown } from './values.js';

export interface BuiltCollection {
  readonly record: CollectionRecord;
  /** Each kept entry's parse result, for line numbers when references are resolved. */
  readonly parsed: ReadonlyMap<EntryRecord, ParsedEntry>;
  /** Ids of every entry file, broken ones included (so references to them are not reported twice). */
  readonly knownIds: ReadonlySet<string>;
  readonly config: CollectionConfig;
  readonly configFile: string;
}

export interface CollectionInput {
  readonly projectFolder: string;
  readonly layout: CollectionLayout;
  readonly config: CollectionConfig;
  readonly entries: readonly { file: FileInfo; parsed: ParsedEntry }[];
}

export function buildCollection(
  input: CollectionInput,
  project: ProjectConfig,
  options: { drafts: boolean; render: RenderMarkdown; issues: IssueList },
): BuiltCollection | undefined {
  const { layout, config, entries } = input;
  const { issues } = options;
  const configFile = `${input.projectFolder}/${layout.folder}/_collection.yaml`;
  const slugIssue = idProblem('collection slug', layout.folder);
  if (slugIssue) {
    issues.error(`${input.projectFolder}/${layout.folder}/`, slugIssue);
    return undefined;
  }
  for (const { file, parsed } of entries) {
    for (const p of parsed.problems) issues.error(file.rel, p.message, { line: p.line });
  }

  const hasMarkdown = entries.some((e) => e.parsed.body !== undefined);
  let fields: FieldDef[];
  if (config.fields) {
    fields = config.fields;
    // A Markdown body needs somewhere to go: an undeclared body field is markdown, listed last.
    if (hasMarkdown && !fields.some((f) => f.name === config.body_field)) {
      fields = [...fields, { name: config.body_field, type: 'markdown', required: false, multiple: false, hidden: false }];
    }
  } else {
    const samples = entries.flatMap((e) => (e.parsed.data ? [{ data: e.parsed.data, hasBody: e.parsed.body !== undefined }] : []));
    fields = inferFields(samples, config.body_field);
  }

  const ctx: EntryContext = {
    project,
    collection: {
      slug: layout.folder,
      bodyField: config.body_field,
      fields: new Map(fields.map((f) => [f.name, f])),
      declared: config.fields !== undefined,
      configFile,
    },
    drafts: options.drafts,
    render: options.render,
    issues,
  };

  const byId = new Map<string, EntryRecord>();
  const parsedOf = new Map<EntryRecord, ParsedEntry>();
  const knownIds = new Set<string>();
  for (const { file, parsed } of entries) {
    const record = buildEntry(ctx, file, parsed);
    if (!record) {
      knownIds.add(baseName(file.rel));
      continue;
    }
    knownIds.add(record.id);
    const other = byId.get(record.id);
    if (other) {
      issues.error(file.rel, `duplicate id '${record.id}': ${other.file} has the same id (ids must be unique in a collection)`, { field: 'id' });
      continue;
    }
    byId.set(record.id, record);
    parsedOf.set(record, parsed);
  }

  const sort = readSort(config.sort, fields, (message) => issues.error(configFile, message, { line: config.sortLine, field: 'sort' }));
  const record: CollectionRecord = {
    slug: layout.folder,
    name: config.name,
    body_field: config.body_field,
    sort,
    fields,
    entries: sortEntries([...byId.values()], sort),
  };
  return { record, parsed: parsedOf, knownIds, config, configFile };
}
