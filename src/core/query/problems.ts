// Problem constructors shared by the parser, the planner and the engine. No Node imports.
import type { QueryProblem, Situation } from './types.js';

/** Thrown inside the engine and caught at the public API; never escapes to callers. */
export class ProblemError extends Error {
  constructor(readonly problem: QueryProblem) {
    super(problem.detail);
  }
}

export function problem(status: number, code: string, detail: string, param?: string, situation?: Situation): QueryProblem {
  const p: QueryProblem = param === undefined ? { status, code, detail } : { status, code, detail, param };
  return situation ? { ...p, situation } : p;
}

/** A 400 problem, thrown. */
export function bad(code: string, detail: string, param?: string, situation?: Situation): never {
  throw new ProblemError(problem(400, code, detail, param, situation));
}
