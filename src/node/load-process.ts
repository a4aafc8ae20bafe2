// The load process (load-path.ts): loads the tree — on two threads when it is large
// (split-parser.ts) — does the job's last step where the memory is, writes what the caller needs
// to the pipe on fd 3 as frames (frames.ts), and exits, and the system takes back everything
// loading took.
import { Socket } from 'node:net';
import { serialize } from 'node:v8';
import { FRAME, frameHead } from './content/frames.js';
import { progressGate } from './content/progress.js';
import { loadSplit, splitParser } from './content/split-parser.js';
import type { LoadJob, LoadOutcome } from './load-path.js';

const RECORDS_PER_FRAME = 2048;

const job = JSON.parse(process.argv[2] as string) as LoadJob;

const pipe = new Socket({ fd: 3, readable: true, writable: true });
// The caller went away (its end closed, or a write found it closed): nobody is waiting for the
// result. The caller never writes; reading is how its going away is seen while nothing is sent
// (at the next turn of the event loop: parsing a batch of files synchronously holds it up).
pipe.on('error', () => process.exit(1));
pipe.on('end', () => process.exit(1));
pipe.resume();
// A caller killed outright (SIGKILL, the OOM killer) is seen above only at a turn of the event
// loop, which parsing and validating 100,000 files hold up for seconds (such an orphan went on for
// 27 s): its parent is also looked at while the work goes on (a new parent: gone).
const parent = process.ppid;
const callerGone = (): void => {
  if (process.ppid !== parent) process.exit(1);
};
const send = (kind: number, payload: Uint8Array) => {
  pipe.write(frameHead(kind, payload.byteLength));
  pipe.write(payload);
};
const sendOutcome = (outcome: LoadOutcome) => send(FRAME.result, serialize(outcome));
// In batches small enough that the caller can make each its own before the next arrives.
const sendRecords = (records: readonly unknown[]) => {
  for (let i = 0; i < records.length; i += RECORDS_PER_FRAME) send(FRAME.records, serialize(records.slice(i, i + RECORDS_PER_FRAME)));
};
const how = { drafts: job.drafts, ...(job.timestamps ? { timestamps: job.timestamps } : {}) };
const progress = (done: number, total: number) => {
  callerGone();
  send(FRAME.progress, Buffer.from(JSON.stringify({ done, total })));
};

try {
  if (job.kind === 'build') {
    // The parse thread first: it starts (~170 ms) while the build's own modules load.
    const { parser, close } = splitParser(callerGone);
    const due = progressGate();
    try {
      const { buildOutput } = await import('./output/build-output.js');
      await buildOutput(
        job.root,
        job.options,
        (event) => {
          if (event.kind === 'progress' && !due(event.done, event.total)) return;
          callerGone();
          if (event.kind === 'loaded') void close(); // the parse thread's part is over: its heap goes before the writing starts
          send(FRAME.event, serialize(event));
        },
        parser,
      );
    } finally {
      await close();
    }
    sendOutcome({ issues: [], warnings: [] });
  } else {
    const result = await loadSplit(job.root, how, progress, callerGone);
    const { issues, warnings, model } = result;
    if (job.kind === 'model') {
      const records = model.projects.flatMap((p) => p.collections.flatMap((c) => c.entries));
      const projects = model.projects.map((p) => ({ ...p, collections: p.collections.map((c) => ({ ...c, entries: [] })) }));
      const entries = model.projects.map((p) => p.collections.map((c) => c.entries.length));
      sendOutcome({ issues, warnings, model: { projects, entries }, records: records.length });
      sendRecords(records);
    } else if (issues.length > 0) sendOutcome({ issues, warnings });
    else {
      const [{ compactParts, splitParts }, { createSnapshot }] = await Promise.all([
        import('../core/snapshot/compact.js'),
        import('../core/snapshot/create.js'),
      ]);
      const { outline, records, buffers } = splitParts(compactParts(createSnapshot(model, job.snapshot)));
      sendOutcome({ issues, warnings, outline, records: records.length, buffers: buffers.length });
      sendRecords(records);
      for (const b of buffers) send(FRAME.bytes, b);
    }
  }
} catch (err) {
  const { name, message, stack, code } = (err instanceof Error ? err : new Error(String(err))) as NodeJS.ErrnoException;
  send(FRAME.error, serialize({ name, message, stack, code }));
}
pipe.end(() => process.exit(0));
