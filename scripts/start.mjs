#!/usr/bin/env node
// `npm start`: serve the sample content (watching it) and print the URL, the sample's fixture
// tokens and curl lines that work when pasted. Only fixture tokens written in plaintext in a
// project.yaml (`token: demo-token`) can be shown: the server itself keeps only their sha256.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { startServer } from '../lib/index.js';
import { printable } from '../lib/node/printable.js';

// `npm start -- --port 4001` or `PORT=4001 npm start` (found from outside: --port was ignored).
const { values, positionals } = parseArgs({ options: { port: { type: 'string' } }, allowPositionals: true, strict: false });
const content = positionals[0] ?? 'content';
// `--port` with no value is `true` to parseArgs: nothing given.
const given = values.port === true ? '' : (values.port ?? process.env.PORT ?? '4000');
const port = /^\d{1,5}$/.test(given) ? Number(given) : Number.NaN;
if (!(port <= 65535)) {
  console.error(`cqa: the port must be a number from 0 to 65535, got '${given}'; e.g. npm start -- --port 4001`);
  process.exit(2);
}

/** Plaintext fixture tokens per project id, read from the project.yaml files. */
function fixtureTokens() {
  const found = [];
  for (const dir of readdirSync(content, { withFileTypes: true })) {
    const file = join(content, dir.name, 'project.yaml');
    if (!dir.isDirectory() || !existsSync(file)) continue;
    try {
      const doc = parse(readFileSync(file, 'utf8')) ?? {};
      for (const t of doc.tokens ?? []) {
        if (typeof t?.token === 'string')
          found.push({ project: String(doc.id ?? dir.name), name: t.name, token: t.token, scopes: t.scopes ?? ['read'] });
      }
    } catch {
      /* the server reports broken files itself */
    }
  }
  return found;
}

// Warnings are the server's own lines; counted to say below the banner what they mean.
let warnings = 0;
const log = (text) => {
  warnings += text.split('\n').filter((l) => l.startsWith('warning: ')).length;
  console.log(text);
};

let server;
try {
  server = await startServer({ content, port, watch: true, quiet: false, log });
} catch (err) {
  if (err?.issues) {
    console.error(
      `cqa: ${err.issues.length} content error(s):\n${err.message
        .split('\n')
        .slice(1)
        .map((l) => `  ${l}`)
        .join('\n')}`,
    );
    process.exit(1);
  }
  if (err?.code === 'EADDRINUSE') {
    console.error(`cqa: port ${port} is in use; try npm start -- --port ${port + 1} (or PORT=${port + 1} npm start)`);
    process.exit(2);
  }
  throw err;
}

const url = server.url;
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
console.log(`\ncqa: serving ./${content} at ${url} (watching for changes; Ctrl-C to stop)\n`);
const projects = [...server.snapshot.projects.values()];
// Each project by its id (what the URLs and headers name), then its name and dialect (found from
// outside: the lines named one project by its name, the others by their ids).
const label = (r) => `project '${r.id}' (${printable(r.name)}${r.dialect && r.dialect !== 'cqa' ? `, dialect ${r.dialect}` : ''})`;
const tokens = fixtureTokens();
for (const p of projects) {
  const t = tokens.find((x) => x.project === p.record.id);
  if (p.record.dialect === 'elmapi3') {
    // Today's ElmapiCMS names the project in a header, not the path (docs/dialects.md).
    const auth3 = t ? `-H ${q(`Authorization: Bearer ${t.token}`)} ` : p.record.public ? '' : `-H 'Authorization: Bearer <token>' `;
    const h3 = `-H ${q(`project-id: ${p.record.id}`)} ${auth3}-H 'Accept: application/json'`;
    console.log(`${label(p.record)}: ${url}/api  with header project-id: ${p.record.id}`);
    if (t) console.log(`  token: ${t.token}  (fixture token '${t.name}', scopes: ${t.scopes.join(', ')})`);
    const slug = [...p.collections.keys()].find((s) => s === 'products') ?? [...p.collections.keys()][0];
    console.log('  try:');
    console.log(`    curl ${h3} ${url}/api`);
    if (slug) console.log(`    curl -g ${h3} ${q(`${url}/api/${slug}?paginate=2&where[price][gt]=50`)}`);
    console.log('');
    continue;
  }
  const auth = p.record.public ? '' : t ? `-H ${q(`Authorization: Bearer ${t.token}`)} ` : `-H 'Authorization: Bearer <token>' `;
  console.log(`${label(p.record)}: ${url}/api/${p.record.id}`);
  if (t) console.log(`  token: ${t.token}  (fixture token '${t.name}', scopes: ${t.scopes.join(', ')})`);
  else if (!p.record.public) console.log('  token: only hashed tokens in project.yaml; make one with `cqa token create`');
  const cols = [...p.collections.values()];
  const col = cols.find((c) => c.record.slug === 'posts') ?? cols[0];
  const h = `${auth}-H 'Accept: application/json'`;
  console.log('  try:');
  console.log(`    curl ${h} ${url}/api/${p.record.id}`);
  if (col) {
    const slug = col.record.slug;
    console.log(`    curl ${h} ${q(`${url}/api/${p.record.id}/${slug}?fields=id&limit=5`)}`);
    const locale = p.record.locales.find((l) => l !== p.record.default_locale) ?? p.record.default_locale;
    console.log(
      `    curl -g ${h} ${q(`${url}/api/${p.record.id}/${slug}?where[locale]=${locale}&sort=published_at:desc&limit=3&timestamps`)}`,
    );
  }
  console.log('');
}

console.log(`explorer: ${url}/  (open it in a browser and type a token above; docs/explorer.md)\n`);
// Found from outside: a first `npm start` printed five warnings, and a new user took the install for broken.
if (warnings > 0) {
  const sample = resolve(content) === resolve(fileURLToPath(new URL('../content', import.meta.url)));
  const which = warnings === 1 ? 'the warning above does' : `the ${warnings} warnings above do`;
  console.log(
    sample
      ? `note: ${which} not stop the server; the sample has them on purpose (fixture tokens written in plaintext, relations to drafts)\n`
      : `note: ${which} not stop the server; \`node bin/cqa.js check ${content}\` lists each with what to change\n`,
  );
}

const stop = () => server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
