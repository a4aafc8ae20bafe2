// The command line as a new user meets it: --help on every command (exit 0, every option with its
// default, an example), `cqa help <command>`, the same exit code for the same mistake everywhere,
// a hint when the content folder given is one folder too high or too low, and `--out` into a
// folder that does not exist yet.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spec as build } from '../../src/node/commands/build.js';
import { spec as check } from '../../src/node/commands/check.js';
import { spec as init } from '../../src/node/commands/init.js';
import { spec as preview } from '../../src/node/commands/preview.js';
import { spec as pull } from '../../src/node/commands/pull.js';
import { spec as serve } from '../../src/node/commands/serve.js';
import { spec as token } from '../../src/node/commands/token.js';
import { spec as types } from '../../src/node/commands/types.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-help-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cqa(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [join(process.cwd(), 'bin/cqa.js'), ...args], { cwd, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const SPECS = { build, serve, preview, check, token, types, pull, init };

describe('cqa <command> --help', () => {
  it.each(Object.entries(SPECS))('%s: exit 0, every option with its value and default, an example', (name, spec) => {
    const args = name === 'token' ? ['token', 'create'] : [name];
    for (const help of [
      [...args, '--help'],
      [...args, '-h'],
      ['help', name],
    ]) {
      const r = cqa(help);
      expect(r.code, help.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: cqa ${name}`));
      for (const [option, o] of Object.entries(spec.options)) {
        const line = r.out.split('\n').find((l) => l.trimStart().startsWith(`--${option} `) || l.trim() === `--${option}`);
        expect(line, `--${option} in ${name} --help`).toBeDefined();
        expect(line).toContain(o.help);
        if (o.fallback !== undefined) expect(line).toContain(`(default: ${o.fallback})`);
      }
      expect(r.out).toMatch(/Examples?:\n {2}cqa /);
    }
  });

  it('cqa --help and cqa help list every command; cqa alone is a usage error', () => {
    for (const args of [['--help'], ['help']]) {
      const r = cqa(args);
      expect(r.code).toBe(0);
      for (const name of Object.keys(SPECS)) expect(r.out).toMatch(new RegExp(`^  ${name}`, 'm'));
    }
    expect(cqa([]).code).toBe(2);
    expect(cqa(['help', 'nope']).code).toBe(2);
  });
});

describe('mistakes that point at the fix (issue 24)', () => {
  it.each([
    [
      ['serve', '--prot', '4001'],
      "cqa serve: unknown option '--prot' (did you mean --port?); options: --port, --host, --allowed-host, --watch,",
    ],
    [['serve', '--prot=4001'], "cqa serve: unknown option '--prot' (did you mean --port?); options:"],
    [['serve', '--wacth'], "cqa serve: unknown option '--wacth' (did you mean --watch?); options:"],
    [['serve', '-p', '4001'], "cqa serve: unknown option '-p' (did you mean --port?); options:"],
    [['build', '--ot', 'x'], "cqa build: unknown option '--ot' (did you mean --out?); options:"],
    [['check', '--strict'], "cqa check: unknown option '--strict'; options: --timestamps, --help\n(see 'cqa check --help')"],
    [['serve', '--port'], 'cqa serve: --port needs a value: write --port <value> or --port=<value>'],
    [['serve', '--port', '--watch'], 'cqa serve: --port needs a value: write --port <value> or --port=<value>'],
    [['serve', '--watch=yes'], 'cqa serve: --watch is a flag and takes no value: write --watch alone'],
    // parseArgs keeps the last of two (found from outside: `--precompress gzip --precompress br` wrote .br only).
    [['build', 'content', '--precompress', 'gzip', '--precompress', 'br'], 'cqa build: --precompress is given twice: give it once'],
    [['serve', '--port', '1', '--port=2'], 'cqa serve: --port is given twice: give it once'],
    [['serv'], "cqa: unknown command 'serv' (did you mean 'cqa serve'?). Commands:"],
    [['--verison'], "cqa: unknown option '--verison' (did you mean 'cqa --version'?). Commands:"],
  ])('%j: exit 2 and the fix', (args, start) => {
    const r = cqa(args);
    expect(r.code).toBe(2);
    expect(r.err.startsWith(start), r.err).toBe(true);
    // Node's own text ends in an unclosed quote: '-- "--prot"
    expect(r.err).not.toContain('positional argument');
  });

  it('cqa help --help prints the usage; the usage names --version', () => {
    for (const args of [
      ['help', '--help'],
      ['help', '-h'],
    ]) {
      const r = cqa(args);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Usage: cqa <command> \[options\]/);
    }
    expect(cqa(['--help']).out).toContain('  -v, --version        print the version of cqa');
    expect(cqa(['--version']).out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a folder without any project: exit 2 at once, without reading node_modules', () => {
    const app = join(work, 'app');
    // An app's root: node_modules full of YAML that is no content.
    for (let i = 0; i < 50; i++) {
      mkdirSync(join(app, 'node_modules', `pkg${i}`, 'lib'), { recursive: true });
      writeFileSync(join(app, 'node_modules', `pkg${i}`, 'lib', 'x.yaml'), 'a: [');
      writeFileSync(join(app, 'node_modules', `pkg${i}`, 'README.md'), '# readme');
    }
    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'src', 'index.md'), '# hi');
    for (const command of ['check', 'build', 'types']) {
      const r = cqa([command, '.'], app);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(
        `cqa ${command}: '.' holds no project: a project is a folder with a project.yaml (demo/project.yaml); start one with \`cqa init content\` (it writes content/site/project.yaml and more; then \`cqa ${command} content\`)\n(see 'cqa ${command} --help')\n`,
      );
    }
    // The advice works as said (found from outside: `cqa init demo` wrote demo/site/project.yaml, not the demo/project.yaml named).
    expect(cqa(['init', 'content'], app).code).toBe(0);
    expect(cqa(['check', 'content'], app).code).toBe(0);
    // An empty folder: cqa init takes it as it is.
    mkdirSync(join(work, 'empty'));
    expect(cqa(['check', '.'], join(work, 'empty')).err).toContain('start one with `cqa init .`\n');
  });
  it('a project folder without its project.yaml: names the file to add, not cqa init (found from outside)', () => {
    const tree = join(work, 'noproject');
    mkdirSync(join(tree, 'site', 'authors'), { recursive: true });
    writeFileSync(join(tree, 'site', 'authors', '_collection.yaml'), 'fields:\n  name: text\n');
    writeFileSync(join(tree, 'site', 'authors', 'ann.yaml'), 'name: Ann\n');
    for (const command of ['check', 'serve']) {
      const r = cqa([command, 'noproject'], work);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(
        `cqa ${command}: 'noproject' holds no project: 'noproject/site' looks like one (it has authors/_collection.yaml) but has no project.yaml: add noproject/site/project.yaml ('name: …' and 'public: true' are enough to start; docs/content.md lists its keys)\n(see 'cqa ${command} --help')\n`,
      );
    }
    // A media folder says it too, and the file it names is all that was missing.
    rmSync(join(tree, 'site', 'authors', '_collection.yaml'));
    mkdirSync(join(tree, 'site', 'media'));
    writeFileSync(join(tree, 'site', 'media', '_media.yaml'), '{}\n');
    expect(cqa(['check', 'noproject'], work).err).toContain("'noproject/site' looks like one (it has media/_media.yaml)");
    writeFileSync(join(tree, 'site', 'project.yaml'), 'name: Site\npublic: true\n');
    expect(cqa(['check', 'noproject'], work)).toMatchObject({ code: 0 });
  });
});

describe('the same mistake, the same exit code', () => {
  it.each([['check'], ['build'], ['serve']])('%s on a folder that does not exist: exit 2, naming it', (name) => {
    const r = cqa([name, join(work, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^cqa ${name}: content folder '.*nope' does not exist`));
    // With no content yet, how to start one (found from outside: a new user's first cqa serve).
    const first = cqa([name], work);
    expect(first.err).toContain(
      `cqa ${name}: content folder 'content' does not exist (give the path: cqa ${name} <content>; or start one: cqa init content)`,
    );
  });

  it('a project whose file is named project.yml: the loader names the file to rename (exit 1), not "holds no project"', () => {
    const tree = join(work, 'yml');
    mkdirSync(join(tree, 'p', 'posts'), { recursive: true });
    writeFileSync(join(tree, 'p', 'project.yml'), 'name: P\n');
    writeFileSync(join(tree, 'p', 'posts', 'a.md'), 'A');
    expect(cqa(['check', tree])).toMatchObject({
      code: 1,
      err: 'p/project.yml: the project file is read only as project.yaml: rename it\n1 error in 1 file\n',
    });
  });

  it('one folder too high or too low: exit 2 with the folder to give', () => {
    cpSync('content', join(work, 'repo', 'content'), { recursive: true });
    const high = cqa(['check', '.'], join(work, 'repo'));
    expect(high.code).toBe(2);
    expect(high.err).toContain(
      "'.' holds no project (a folder with a project.yaml), but 'content' does: did you mean `cqa check content`?",
    );
    expect(high.err.split('\n').length).toBeLessThan(4); // not a warning per file of the wrong tree
    const low = cqa(['build', 'content/demo'], join(work, 'repo'));
    expect(low.code).toBe(2);
    expect(low.err).toContain('did you mean `cqa build content`?');
    // Run inside the folder itself, the folder above is '..' (found from outside: dirname('.') is '.',
    // so the advice was the same command again, and inside a collection 'cqa init .').
    expect(cqa(['check', '.'], join(work, 'repo', 'content', 'demo')).err).toContain('did you mean `cqa check ..`?');
    expect(cqa(['check', '.'], join(work, 'repo', 'content', 'demo', 'posts')).err).toContain(
      "'.' is a folder inside the project '..'; give the folder that holds the projects: did you mean `cqa check ../..`?",
    );
    // A project kept beside other folders (an app's root): not that root, which would read each as a project.
    mkdirSync(join(work, 'flatapp', 'src'), { recursive: true });
    cpSync('content/demo', join(work, 'flatapp', 'blog'), { recursive: true });
    const flat = cqa(['check', 'blog'], join(work, 'flatapp'));
    expect(flat.code).toBe(2);
    expect(flat.err).toContain(
      "'blog' is a project folder, and cqa check takes the folder that holds the projects; '.' holds other folders too (src), each of which would be read as a project: put 'blog' in a folder of its own, e.g. content/blog, and give that folder: cqa check content",
    );
    // Lower still, a collection or media folder (found from outside: it was told to run cqa init there).
    for (const folder of ['content/demo/posts', 'content/demo/media']) {
      const deeper = cqa(['check', folder], join(work, 'repo'));
      expect(deeper.code).toBe(2);
      expect(deeper.err).toContain(
        `'${folder}' is a folder inside the project 'content/demo'; give the folder that holds the projects: did you mean \`cqa check content\`?`,
      );
    }
  });
});

describe('cqa build --out', () => {
  it('creates the missing parent folders of the output', () => {
    const out = join(work, 'new', 'deeper', 'dist');
    const r = cqa(['build', 'content', '--out', out, '--include-private']);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(out, 'api', 'demo', 'index.json'))).toBe(true);
  });
});
