// Turning an API's answer into JSON, or into an error that says what to change: the token for a
// 401, the token's scope for a 403, the base URL, project or collection for a 404.
import type { Answer } from './fetch.js';
import { idProblem } from '../../core/model/identifiers.js';
import { LIMITS } from '../content/limits.js';
import { PullError } from './model.js';

export interface AnswerContext {
  /** What was asked, for messages: "project 'demo'", "collection 'posts'". */
  readonly what: string;
  /** The full URL, for messages. */
  readonly url: string;
  readonly project: string;
  /** The option to check when the answer is a 404. */
  readonly notFoundHint: string;
  /** Whether --drafts was given (a 403 then means the token lacks the drafts scope). */
  readonly drafts?: boolean;
}

function bodyText(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

const TOKEN_HINT = (project: string) =>
  `set CQA_TOKEN (or --token-file FILE) to a token of project '${project}' (on a cqa server, 'cqa token create --project ${project}' makes one)`;

/** The JSON of a 2xx answer; any other answer becomes a PullError naming what to fix. */
export function readJson(answer: Answer, ctx: AnswerContext): unknown {
  const { status } = answer;
  if (status === 401) throw new PullError(`${ctx.url}: the server wants a valid token (HTTP 401): ${TOKEN_HINT(ctx.project)}`, true);
  if (status === 403) {
    const fix = ctx.drafts
      ? '--drafts needs a token with the drafts scope; pull without --drafts or use such a token'
      : `use a token of project '${ctx.project}' that may read it`;
    throw new PullError(`${ctx.url}: the token may not read this (HTTP 403): ${fix}`, true);
  }
  if (status === 404) throw new PullError(`${ctx.url}: ${ctx.what} not found (HTTP 404): ${ctx.notFoundHint}`, true);
  if (status < 200 || status > 299) throw new PullError(`${ctx.url}: HTTP ${status} for ${ctx.what}: ${bodyText(answer.text)}`);
  // Deeper than any content file may nest (LIMITS.depth, with the answer's own levels): refused
  // before parsing, since what walks it later would run out of stack (found from outside).
  if (nestedBeyond(answer.text, MAX_ANSWER_DEPTH))
    throw new PullError(
      `${ctx.url}: the answer for ${ctx.what} nests more than ${MAX_ANSWER_DEPTH} levels deep; a content file may nest ${LIMITS.depth} (no tree can hold it)`,
    );
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    throw new PullError(
      `${ctx.url}: the answer for ${ctx.what} is not JSON (${bodyText(answer.text)}): is the base URL the API's address (the part before /api)?`,
    );
  }
  // The original elmapi API answers a missing or wrong token with a 200 and this body.
  if (isObject(value) && value.message === 'Unauthenticated.' && Object.keys(value).length === 1) {
    throw new PullError(`${ctx.url}: the server wants a valid token (Unauthenticated.): ${TOKEN_HINT(ctx.project)}`, true);
  }
  return value;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A check on the shape of an answer: `cond` or a PullError saying what was expected. `usage`: the
 * answer says the options are wrong (another dialect or API: exit 2); else the server answered
 * nonsense (exit 1, docs/pull.md).
 */
export function expectShape(cond: boolean, url: string, expected: string, usage = false): asserts cond {
  if (!cond) throw new PullError(`${url}: not the answer expected (${expected})`, usage);
}

/**
 * A collection slug the server listed, checked before any request is built with it: a slug no
 * content tree can hold (`../x`, `a/b`) stops the pull naming the server's answer, not the user's options.
 */
export function listedSlug(slug: unknown): string {
  const text = String(slug);
  const problem = idProblem('collection slug', text);
  if (problem)
    throw new PullError(
      `the server lists a collection that no content tree can hold: ${problem}; pull the others with --collections <slugs>`,
    );
  return text;
}

/**
 * A media file's path under media/, from the URL the API serves it at: the part after
 * `/<project>/` when it ends in the file name (sub-folders kept), else the file name alone.
 */
export function mediaPathOf(url: URL, project: string, fileName: string, what: 'media' | 'asset', urlField: string): string {
  const marker = `/${project}/`;
  const at = url.pathname.lastIndexOf(marker);
  if (at < 0) return fileName;
  let tail: string;
  try {
    tail = decodeURIComponent(url.pathname.slice(at + marker.length));
  } catch {
    throw new PullError(`${what} ${JSON.stringify(fileName)}: its ${urlField} ${url.href} has a bad percent-escape (%XX)`);
  }
  return tail === fileName || tail.endsWith(`/${fileName}`) ? tail : fileName;
}

/** A content value's levels (LIMITS.depth) with room for an answer's envelope (`{"data": [{…}]}`). */
const MAX_ANSWER_DEPTH = LIMITS.depth + 10;

/** Whether JSON `text` opens more than `max` arrays and objects inside each other (strings skipped). */
function nestedBeyond(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, escapes skipped.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
