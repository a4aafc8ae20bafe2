// A required field the API answers empty for some entry (a relation to a draft: relations show
// published targets only; a password or hidden field: never served) is written without
// `required: true`, with a comment, and pull names each file and field: the pulled tree passes
// `cqa check` (found from outside: "✓ pulled", then `cqa check` said "author: required field is missing").
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { pull } from '../../src/node/pull/pull.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { writeTree } from '../content/helpers.js';
import { tempDir } from './fixture.js';

const DRAFTS = 'drafts-token';
const V3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d11';
const tokens = `tokens:\n  - { name: d, token: ${DRAFTS}, scopes: [read, drafts] }\n`;

const mag = writeTree({
  'mag/project.yaml': `name: Mag\nlocales: [en]\n${tokens}`,
  'mag/writers/_collection.yaml': 'fields:\n  name: { type: text, required: true }\n',
  'mag/writers/ann.yaml': 'name: Ann\n',
  'mag/writers/cleo.yaml': 'name: Cleo\ndraft: true\n',
  'mag/articles/_collection.yaml': [
    'fields:',
    '  title: { type: text, required: true }',
    '  author: { type: relation, collection: writers, required: true }',
    '  team: { type: relation, collection: writers, multiple: true, required: true }',
    '  body: markdown',
    '',
  ].join('\n'),
  'mag/articles/first.md': '---\ntitle: First\nauthor: ann\nteam: [ann]\n---\nHello\n',
  // A published entry relating to a draft: served null, said by cqa check.
  'mag/articles/late.md': '---\ntitle: Late\nauthor: cleo\nteam: [cleo]\n---\nLate\n',
  // The report: a draft relating to a draft, pulled with --drafts.
  'mag/articles/wip.md': '---\ntitle: WIP\nauthor: cleo\nteam: [ann]\ndraft: true\n---\nWip\n',
});

const v3 = writeTree({
  'v3/project.yaml': `id: ${V3}\nname: V3\ndialect: elmapi3\nlocales: [en]\n${tokens}`,
  'v3/writers/_collection.yaml': 'fields:\n  name: { type: text, required: true }\n',
  'v3/writers/ann.yaml': 'name: Ann\n',
  'v3/writers/cleo.yaml': 'name: Cleo\ndraft: true\n',
  'v3/articles/_collection.yaml': [
    'fields:',
    '  title: { type: text, required: true }',
    '  author: { type: relation, collection: writers, required: true }',
    '  secret: { type: text, hidden: true, required: true }',
    '  pin: { type: password, required: true }',
    '  credits: { type: group, repeatable: true, fields: { who: { type: relation, collection: writers, required: true }, role: text } }',
    '',
  ].join('\n'),
  'v3/articles/first.yaml': 'title: First\nauthor: ann\nsecret: s\npin: "1234"\ncredits: [{ who: ann }, { who: cleo, role: pictures }]\n',
  'v3/articles/wip.yaml': 'title: WIP\nauthor: cleo\nsecret: s\npin: "1234"\ndraft: true\n',
});

let server: RunningServer;
let server3: RunningServer;
beforeAll(async () => {
  server = await startServer({ content: mag });
  server3 = await startServer({ content: v3 });
});
afterAll(async () => {
  await server?.close();
  await server3?.close();
});

/** What `cqa check` says of a folder: its errors, as it prints them. */
async function checkErrors(root: string): Promise<string[]> {
  return (await loadContent(root)).issues.map((i) => `${i.file}:${i.line ?? 1}: ${i.field ?? ''}: ${i.message}`);
}

const schemaLine = (out: string, project: string, field: string) =>
  readFileSync(join(out, project, 'articles/_collection.yaml'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`  ${field}:`));

describe('a required field the API answers empty', () => {
  it('is written without required: true, said per file and field, and the pulled tree passes cqa check', async () => {
    const out = tempDir();
    const warnings: string[] = [];
    await pull({ baseUrl: server.url, project: 'mag', token: DRAFTS, dialect: 'cqa', out, drafts: true, warn: (m) => warnings.push(m) });
    expect(await checkErrors(out)).toEqual([]);

    // Every entry has a title: it stays required. author and team lose it, with the entries named.
    expect(schemaLine(out, 'mag', 'title')).toBe('  title: { type: text, required: true }');
    expect(schemaLine(out, 'mag', 'author')).toBe(
      '  author: { type: relation, collection: writers }  # required in the API; no value pulled for late, wip',
    );
    expect(schemaLine(out, 'mag', 'team')).toBe(
      '  team: { type: relation, multiple: true, collection: writers }  # required in the API; no value pulled for late',
    );
    const related = "not pulled: the API shows a related entry only once it is published, and this entry's is not (a draft, most likely)";
    expect(warnings).toEqual([
      "mag/articles/_collection.yaml: author: written without 'required: true', which the API has: 2 of the 3 pulled entries have no value for it (the files below), and cqa check refuses a required field left empty. Give each file its author, then put 'required: true' back",
      `mag/articles/late.md: author: ${related}`,
      `mag/articles/wip.md: author: ${related}`,
      "mag/articles/_collection.yaml: team: written without 'required: true', which the API has: 1 of the 3 pulled entries has no value for it (the files below), and cqa check refuses a required field left empty. Give each file its team, then put 'required: true' back",
      `mag/articles/late.md: team: ${related}`,
    ]);
    expect(readFileSync(join(out, 'mag/articles/wip.md'), 'utf8')).toMatch(/^---\ndraft: true\ntitle: WIP\nteam:\n {2}- ann\ncreated_at: /);

    // Without --drafts only the published entry relating to a draft is missing it.
    const published = tempDir();
    const said: string[] = [];
    await pull({ baseUrl: server.url, project: 'mag', token: DRAFTS, dialect: 'cqa', out: published, warn: (m) => said.push(m) });
    expect(await checkErrors(published)).toEqual([]);
    expect(said.filter((w) => w.startsWith('mag/articles/_collection.yaml:')).map((w) => w.split(':')[1])).toEqual([' author', ' team']);
    expect(schemaLine(published, 'mag', 'author')).toMatch(/# required in the API; no value pulled for late$/);
  });

  it('the command: warnings on stderr, exit 0, and cqa check of the pulled tree passes', async () => {
    const out = tempDir();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/cqa.js', ...args], {
          env: { ...process.env, CQA_TOKEN: DRAFTS },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, out: stdout, err: stderr }));
      });
    const pulled = await run(['pull', server.url, '--project', 'mag', '--out', out, '--drafts', '--media']);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toContain('✓ pulled mag');
    expect(pulled.err).toContain(
      "warning: mag/articles/wip.md: author: not pulled: the API shows a related entry only once it is published, and this entry's is not (a draft, most likely)",
    );
    const checked = await run(['check', out]);
    expect(checked.err).not.toContain('required field');
    expect(checked.code).toBe(0);
  });

  it('elmapi3: password and hidden fields (never served), a group child relating to a draft; a draft keeps its related draft (drafts scope)', async () => {
    const out = tempDir();
    const warnings: string[] = [];
    await pull({ baseUrl: server3.url, project: V3, token: DRAFTS, dialect: 'elmapi3', out, drafts: true, warn: (m) => warnings.push(m) });
    expect(await checkErrors(out)).toEqual([]);
    expect(schemaLine(out, V3, 'author')).toBe('  author: { type: relation, required: true, collection: writers }');
    expect(schemaLine(out, V3, 'secret')).toBe(
      "  secret: { type: text, hidden: true }  # required in the API; a hidden field's values are never served",
    );
    expect(schemaLine(out, V3, 'pin')).toBe("  pin: password  # required in the API; a password field's values are never served");
    expect(schemaLine(out, V3, 'credits')).toMatch(
      /^ {2}credits: \{ type: group, repeatable: true, fields: \{ who: \{ type: relation, collection: writers \}, role: text \} \} {2}# credits\.who: required in the API; no value pulled for [0-9a-f-]{36}$/,
    );
    const first = warnings.find((w) => w.includes('credits.who: not pulled'))?.split(':')[0] as string;
    expect(readFileSync(join(out, first), 'utf8')).toMatch(/\ncredits:\n {2}- who: [0-9a-f-]{36}\n {2}- role: pictures\n/);
    expect(warnings).toEqual([
      `${V3}/articles/_collection.yaml: secret: written without 'required: true', which the API has: the API never serves a hidden field's values, so no pulled file has one, and cqa check would refuse every file. Put 'required: true' back once each file gives secret`,
      `${V3}/articles/_collection.yaml: pin: written without 'required: true', which the API has: the API never serves a password field's values, so no pulled file has one, and cqa check would refuse every file. Put 'required: true' back once each file gives pin`,
      `${V3}/articles/_collection.yaml: credits.who: written without 'required: true', which the API has: 1 of the 2 pulled entries has no value for it (the files below), and cqa check refuses a required field left empty. Give each file its credits.who, then put 'required: true' back`,
      first.startsWith(`${V3}/articles/`) && first.endsWith('.yaml')
        ? `${first}: credits.who: not pulled: the API shows a related entry only once it is published, and this entry's is not (a draft, most likely)`
        : 'a file of articles',
    ]);
  });
});
