// Why a content file could be read but not used; thrown by read.ts and open-content.ts.

/** A file that can be read but not used as content; `line` where the problem is known. */
export class FileProblem extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'FileProblem';
  }
}

/** What a file the system cannot read is said as, before the error's code (`ENOENT`: it is gone). */
export const CANNOT_READ = 'cannot read the file: ';

export const NOT_REGULAR = 'not a regular file (a FIFO, socket or device): remove it or move it out of the content folder';
