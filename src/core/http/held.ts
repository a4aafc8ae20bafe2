// How many answers a delay holds back at once (--delay, `Prefer: delay=`): each keeps its
// connection open, and ~20,000 of them used up the file descriptors, so that every new
// connection was refused. No Node imports.

/** Default cap on answers held back at once. */
export const MAX_HELD = 1000;

export class HeldAnswers {
  private count = 0;

  constructor(readonly max: number = MAX_HELD) {}

  /** Room for one more held answer: its release (safe to call twice), or undefined at the cap. */
  take(): (() => void) | undefined {
    if (this.count >= this.max) return undefined;
    this.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count--;
    };
  }
}
