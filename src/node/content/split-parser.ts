// A FileParser for a large tree on two threads: the calling thread and a parse thread
// (parse-thread.ts) take the files a few at a time from one shared counter, so the one that started
// later or got the longer files does fewer. Used where a large tree is loaded: the load process
// (src/node/load-process.ts).
import { availableParallelism } from 'node:os';
import { fromOutcome, runJob, sharedClaims, type FileParser, type Outcome } from './file-parser.js';
import { loadContent, type LoadOptions, type LoadResult } from './load.js';
import { ParseThread } from './parse-thread.js';
import { progressGate } from './progress.js';
import { PARALLEL_PARSE_FILES } from '../thresholds.js';

export interface SplitParser {
  readonly parser: FileParser;
  /** Ends the parse thread (call once loading is done). */
  close(): Promise<void>;
}

/** `betweenClaims`: called after each claim this thread parses (the load process checks that its caller is still there). */
export function splitParser(betweenClaims?: () => void): SplitParser {
  const other = new ParseThread({ lines: false });
  other.start();
  /** Shared between this thread and the parse thread; none when not worth it (the loader parses them). */
  const parser: FileParser = {
    async parse(jobs) {
      const outcomes = new Map<string, Outcome>();
      if (availableParallelism() < 2 || jobs.length < PARALLEL_PARSE_FILES) return outcomes;
      const next = new Int32Array(new SharedArrayBuffer(4));
      const theirs = other.shared(jobs, next);
      for (const claim of sharedClaims(jobs, next)) {
        for (const job of claim) outcomes.set(job.abs, fromOutcome(runJob(job, false)));
        theirs.take(outcomes);
        betweenClaims?.();
      }
      await theirs.rest(outcomes); // what a thread that stopped took is left to the loader
      return outcomes;
    },
  };
  return { parser, close: () => other.close() };
}

/**
 * loadContent() with a split parser, its progress passed on at most every 50 ms (progress.ts). Not
 * loadForJob(): this model leaves the load process (load-path.ts: buildSnapshot(), cqa serve), and
 * v8.serialize would carry values as the parser made them (-0, an aliased object shared) where a
 * load in the calling thread gives detached ones (entries.ts).
 */
export async function loadSplit(
  root: string,
  how: Pick<LoadOptions, 'drafts' | 'timestamps'>,
  progress: (done: number, total: number) => void,
  betweenClaims?: () => void,
): Promise<LoadResult> {
  const { parser, close } = splitParser(betweenClaims);
  const due = progressGate();
  try {
    return await loadContent(root, {
      ...how,
      parser,
      onProgress: (done, total) => {
        if (due(done, total)) progress(done, total);
      },
    });
  } finally {
    await close();
  }
}
