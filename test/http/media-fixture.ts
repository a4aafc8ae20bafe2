// Media files that try to run script on the API origin (test/http/media-origin*.test.ts): a
// public `cqa` project `site` with one file per active type and two disguised ones, plus the sample
// travel project (dialect elmapi) with an HTML file and an image tall enough for a thumbnail.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { writeTree } from '../content/helpers.js';

export const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47'; // content/travel (dialect elmapi)
const SCRIPT = "<script>console.log('MEDIA SCRIPT RAN on ' + location.origin)</script>";
/** Files a contributor or a pulled API could put in media/: each tries to run script. */
export const ACTIVE: Record<string, string> = {
  'page.html': `<!doctype html><title>x</title>${SCRIPT}`,
  'Page.HTM': `<html>${SCRIPT}</html>`,
  'drawing.svg': `<svg xmlns="http://www.w3.org/2000/svg"><script>console.log('MEDIA SCRIPT RAN svg')</script></svg>`,
  'feed.xml': `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">${SCRIPT}</html>`,
  'doc.xhtml': `<html xmlns="http://www.w3.org/1999/xhtml">${SCRIPT}</html>`,
  'app.js': "console.log('MEDIA SCRIPT RAN js')",
  'paper.pdf': '%PDF-1.4\n',
  'blob.unknownext': `<html>${SCRIPT}</html>`,
};
/** Inline-safe types whose bytes are HTML: nosniff keeps them what their type says. */
export const DISGUISED: Record<string, string> = {
  'fake.png': `<html>${SCRIPT}</html>`,
  'notes.txt': `<html>${SCRIPT}</html>`,
};

export async function mediaTree(root: string): Promise<void> {
  cpSync('content/travel', join(root, 'travel'), { recursive: true });
  const tall = await sharp({ create: { width: 20, height: 700, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer();
  const files: Record<string, string | Buffer> = {
    'site/project.yaml': 'name: Site\nlocales: [en]\npublic: true\n',
    'travel/media/tall.png': tall,
  };
  for (const [name, text] of Object.entries({ ...ACTIVE, ...DISGUISED })) files[`site/media/${name}`] = text;
  files['travel/media/page.html'] = ACTIVE['page.html'] as string;
  writeTree(files, root);
}
