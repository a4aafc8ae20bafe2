// A load process whose caller is killed outright (SIGKILL, the OOM killer) stops working: nobody
// reads what it makes. Its pipe's end is seen only at a turn of the event loop, which parsing and
// validating a large tree hold up; such an orphan went on for 20–27 s at 100,000 files (killed 3 s
// into cqa serve or cqa build). Now it looks at its parent between claims and progress reports.
// Linux: an orphan gets a new parent there, and /proc says what each process has used.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateContent } from '../../scripts/generate-content.mjs';
import { writeTree } from './helpers.js';

/** The CPU time (user + system, in clock ticks) a process has used so far; undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    // After the command's name in parentheses: state is field 3, utime and stime fields 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'latin1')
      .replace(/^.*\) /s, '')
      .split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** The pids of running processes whose command line holds `text`. */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(text)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe.runIf(process.platform === 'linux')('a load process whose caller was killed', () => {
  it('stops parsing: after its caller is killed it uses a small part of the CPU it had used until then', async () => {
    const work = writeTree({});
    const root = join(work, 'content');
    generateContent({ entries: 20_000, out: root, seed: 9, format: 'md' });
    // The caller: cqa build's work in the load process, as the CLI starts it (lib/ is compiled by
    // test/global-setup.ts).
    const caller = join(work, 'caller.mjs');
    writeFileSync(
      caller,
      `import { buildOutputIsolated } from ${JSON.stringify(pathToFileURL(resolve('lib/node/load-path.js')).href)};
await buildOutputIsolated(${JSON.stringify(root)}, { drafts: false, baseUrl: '', out: ${JSON.stringify(join(work, 'dist'))}, precompress: 'none', includePrivate: true, timestamps: 'mtime' }, () => {});
`,
    );
    const child = spawn(process.execPath, [caller], { stdio: 'ignore' });
    const deadline = Date.now() + 60_000;
    const poll = () => new Promise((r) => setTimeout(r, 10));
    // Its load process (the one whose command line holds the job, with the content path), killed
    // once it has used 1 s of CPU: started, listed the tree and parsing it on two threads.
    let loader: number | undefined;
    while (loader === undefined && Date.now() < deadline) {
      [loader] = processesWith(root);
      await poll();
    }
    let before = 0;
    while (before < 100 && Date.now() < deadline) {
      before = cpuTicks(loader as number) ?? Number.POSITIVE_INFINITY;
      await poll();
    }
    child.kill('SIGKILL');
    let last = before;
    for (let now = cpuTicks(loader as number); now !== undefined && Date.now() < deadline; now = cpuTicks(loader as number)) {
      last = now;
      await poll();
    }
    expect(cpuTicks(loader as number)).toBeUndefined();
    // Without looking at its parent it went on to the end of the build: 3.6 s of CPU here (0.02 s with it).
    expect(last - before).toBeLessThan(before / 2);
  }, 120_000);
});
