// The elmapi3 content tree (docs/content.md): uuid project ids, derived entry uuids, groups, ranges.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/node/content/issues.js';
import { load } from './helpers.js';

const P = 'id: 3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10\nname: S\ndialect: elmapi3\nlocales: [en, fr]\npublic: true\n';

describe('elmapi3 content', () => {
  it('a project id that is not a uuid is a content error naming file, line and field', async () => {
    const r = await load({ 'p/project.yaml': 'name: S\ndialect: elmapi3\nid: shop\n' });
    expect(r.issues).toEqual([
      expect.objectContaining({
        file: 'p/project.yaml',
        line: 3,
        field: 'id',
        message: expect.stringContaining("needs 'id:' to be a uuid"),
      }),
    ]);
  });

  it('entry uuids: given ones must be uuids; others are derived (v5) from project, collection and file name', async () => {
    const tree = { 'p/project.yaml': P, 'p/posts/a.yaml': 'title: A\n', 'p/posts/a.fr.yaml': 'title: A fr\n' };
    const one = await load(tree);
    const two = await load(tree);
    const ids = (r: typeof one) => r.model.projects[0]?.collections[0]?.entries.map((e) => e.id);
    expect(ids(one)).toEqual(ids(two));
    for (const id of ids(one) ?? []) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const bad = await load({ 'p/project.yaml': P, 'p/posts/a.yaml': 'id: hello\ntitle: A\n' });
    expect(bad.issues).toEqual([expect.objectContaining({ file: 'p/posts/a.yaml', line: 1, field: 'id' })]);
  });

  it('group, password and range fields are checked like any field', async () => {
    const schema =
      'fields:\n  title: text\n  secret: password\n  season: { type: date, range: true }\n  links: { type: group, repeatable: true, fields: { label: text, url: text } }\n';
    const ok = await load({
      'p/project.yaml': P,
      'p/posts/_collection.yaml': schema,
      'p/posts/a.yaml': 'title: A\nsecret: x\nseason: { start: 2026-01-01 }\nlinks: [{ label: L, url: u }]\n',
    });
    expect(ok.issues).toEqual([]);
    const fields = ok.model.projects[0]?.collections[0]?.fields;
    expect(fields?.find((f) => f.name === 'secret')?.hidden).toBe(true);
    const bad = await load({
      'p/project.yaml': P,
      'p/posts/_collection.yaml': schema,
      'p/posts/a.yaml': 'title: A\nseason: 2026-01-01\nlinks: [{ label: L, colour: red }]\n',
    });
    expect(bad.issues.map((i) => `${i.line}:${i.field}`)).toEqual(['2:season', '3:links']);
    expect(bad.issues[1]?.message).toContain("'colour' is not a field of group 'links'");
  });

  // Found from outside: "a mapping of a and 7 more" for a group of one field; a key other than
  // start and end was not named; an end before its start was accepted.
  it('a group or range written wrong: the message names what is there and what to write', async () => {
    const schema =
      'fields:\n  one: { type: group, fields: { a: text } }\n  two: { type: group, fields: { label: text, url: text } }\n  season: { type: date, range: true }\n  when: { type: datetime, range: true }\n';
    const r = await load({
      'p/project.yaml': P,
      'p/posts/_collection.yaml': schema,
      'p/posts/g.yaml': 'one: [ { a: x } ]\ntwo: [ { label: x } ]\n',
      'p/posts/r.yaml':
        'season: { start: 2026-04-01, end: 2026-09-30, middle: 2026-06-01 }\nwhen: { start: 2026-04-01T10:00:00Z, end: 2026-04-01T09:00:00Z }\n',
      'p/posts/s.yaml': 'season: { start: 2026-09-30, end: 2026-04-01 }\n',
      'p/posts/ok.yaml': 'season: { start: 2026-04-01, end: 2026-04-01 }\nwhen: { end: 2026-04-01T09:00:00Z }\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      "p/posts/g.yaml:1: one: expected a mapping of a, got a list (declare the group with 'repeatable: true' to allow several)",
      "p/posts/g.yaml:2: two: expected a mapping of label, url, got a list (declare the group with 'repeatable: true' to allow several)",
      "p/posts/r.yaml:1: season: 'middle' is not part of a range: a range has start and end only (start: a date YYYY-MM-DD, end: the same); remove it",
      'p/posts/r.yaml:2: when: the end (2026-04-01T09:00:00Z) is before the start (2026-04-01T10:00:00Z): swap them, or correct the one that is wrong',
      'p/posts/s.yaml:1: season: the end (2026-04-01) is before the start (2026-09-30): swap them, or correct the one that is wrong',
    ]);
  });

  // Found from outside: the docs called these elmapi3 types, but they work in every dialect
  // (docs/content.md now says so); singleton: true did nothing outside elmapi3, in silence.
  // Found from outside: a required field inside a group was never checked.
  it("a group's required fields are checked as an entry's are, in each item of a repeatable group", async () => {
    const schema =
      'fields:\n  addr: { type: group, fields: { street: { type: text, required: true }, zip: text } }\n  links: { type: group, repeatable: true, fields: { url: { type: text, required: true }, label: text } }\n';
    const r = await load({
      'p/posts/_collection.yaml': schema,
      'p/posts/a.yaml': 'addr:\n  zip: "01234"\nlinks:\n  - url: https://a.example\n  - label: no url\n  - url: ""\n',
      'p/posts/b.yaml': 'addr: { street: Main, zip: "1" }\nlinks: []\n',
      'p/posts/c.yaml': 'title: none\n',
    });
    expect(r.issues.map(formatIssue)).toEqual([
      'p/posts/a.yaml:1: addr: street: required field is missing',
      'p/posts/a.yaml:5: links: item 2: url: required field is missing',
      'p/posts/a.yaml:6: links: item 3: url: required field is empty',
      "p/posts/c.yaml:1: title: not in the schema of collection 'posts' (fields: addr, links); add it to p/posts/_collection.yaml or remove it",
    ]);
  });

  it('group, password and range work in a cqa project; singleton: true there is a warning', async () => {
    const r = await load({
      'p/project.yaml': 'name: P\nlocales: [en]\npublic: true\n',
      'p/posts/_collection.yaml':
        'singleton: true\nfields:\n  title: text\n  grp: { type: group, fields: { a: text } }\n  pw: password\n  d: { type: date, range: true }\n',
      'p/posts/a.yaml': 'title: A\ngrp: { a: x }\npw: secret\nd: { start: 2024-01-01, end: 2024-02-01 }\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/posts/_collection.yaml',
        line: 1,
        field: 'singleton',
        message:
          'has an effect only in a project of dialect elmapi3 (whose list route answers the one entry); in this cqa project the collection is listed like any other: remove the key, or set dialect: elmapi3 in project.yaml',
      },
    ]);
    const e = r.model.projects[0]?.collections[0]?.entries[0];
    expect(e?.values).toMatchObject({ grp: { a: 'x' }, d: { start: '2024-01-01', end: '2024-02-01' } });
  });

  it('cqa check: a collection ElmapiCMS routes itself is an error; a singleton with two entries in a locale and two assets of one name are warnings', async () => {
    const single = 'singleton: true\nfields:\n  name: text\n';
    const r = await load({
      'p/project.yaml': P,
      'p/files/a.yaml': 'title: A\n',
      'p/collections/a.yaml': 'title: A\n',
      'p/webhooks/a.yaml': 'title: A\n',
      'p/site/_collection.yaml': single,
      'p/site/a.yaml': 'name: A\n',
      'p/site/b.yaml': 'name: B\n',
      'p/site/b.fr.yaml': 'name: B fr\n',
    });
    expect(r.issues.map((i) => `${i.file}: ${i.message}`)).toEqual([
      expect.stringMatching(/^p\/collections: a collection of an elmapi3 project cannot be called 'collections'.*rename the folder/),
      expect.stringMatching(/^p\/files: .*ElmapiCMS answers \/api\/files with its own route/),
    ]);
    expect(r.warnings.map((i) => `${i.file}: ${i.message}`)).toEqual([
      expect.stringMatching(
        /^p\/site\/b\.yaml: 'site' is a singleton: in locale 'en' ElmapiCMS answers one entry \(p\/site\/a\.yaml here\)/,
      ),
      expect.stringMatching(/^p\/webhooks: ElmapiCMS answers \/api\/webhooks with its own/),
    ]);
    const other = await load({ 'p/project.yaml': 'id: p\nname: P\n', 'p/files/a.yaml': 'title: A\n' });
    expect(other.issues).toEqual([]);
  });
});
