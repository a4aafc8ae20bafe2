// Progress sent from a thread or process that loads (or builds) to the one that prints it.

/** Whether to send this report: a message per file would cost more than it tells, so at most one every `everyMs`, and always the last. */
export function progressGate(everyMs = 50): (done: number, total: number) => boolean {
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (now - last < everyMs && done < total) return false;
    last = now;
    return true;
  };
}
