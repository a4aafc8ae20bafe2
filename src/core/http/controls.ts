// Contract-test controls: how long an answer is held back and whether an API request fails on
// purpose — `--delay`, `--fail-rate`, `--fail-status`, `--seed`, and one request's own `Prefer:
// status=503, delay=200` (the Prism convention). What happens to a request is decided here, once; the
// core words a failure in the project's dialect and the adapters wait. No Node imports.
import { REALM } from './auth.js';
import { shownValue } from './options.js';
import type { Problem } from './problem.js';
import { STATUS_TITLES } from './problem.js';
import { HeldAnswers, MAX_HELD } from './held.js';

/** Ten minutes: longer is no use for a mock, and past 2^31-1 ms timers fire after 1 ms. */
export const MAX_DELAY_MS = 600_000;
/** What `--fail-status` may be: a rate limit, a crash, an outage. */
export const FAIL_STATUSES = [429, 500, 503] as const;
export type FailStatus = (typeof FAIL_STATUSES)[number];
/** Seconds in the Retry-After of an injected 429 or 503 unless told otherwise. */
const RETRY_AFTER = 1;

/** Milliseconds, or a range drawn from (uniformly, whole ms) for each request. */
export type Delay = number | { readonly min: number; readonly max: number };

export interface ControlOptions {
  /** Hold every answer back: `200`, or `{ min: 100, max: 400 }` drawn per request (default 0). */
  readonly delay?: Delay;
  /** Share of API requests that fail on purpose, from 0 (default) to 1. */
  readonly failRate?: number;
  /** The status of those failures (default 503; given without `failRate`: a TypeError). */
  readonly failStatus?: FailStatus;
  /** Seed of the draws (fail-rate, delay range): the same seed, options and requests give the same decisions. Default: random. */
  readonly seed?: number;
  /** Honour `Prefer: status=…` and `Prefer: delay=…` per request (default: true in startServer, false in createHandler). */
  readonly prefer?: boolean;
  /** Seconds in the Retry-After of an injected 429 or 503 (default 1). */
  readonly retryAfter?: number;
  /**
   * Most answers held back by a delay at once (default 1000): a delayed request over it is
   * answered 503 at once, with Retry-After, instead of holding one more connection open.
   */
  readonly maxHeld?: number;
}

/** What happens to one request. */
export interface ControlDecision {
  /** Hold the answer back this many ms. */
  readonly delay: number;
  /** Answer this instead: an injected failure, or a 400 for a Prefer header that makes no sense. */
  readonly problem?: Problem;
  /** The status was injected (fail-rate or Prefer), not the answer of the API. */
  readonly injected: boolean;
  /** Retry-After, Preference-Applied. */
  readonly headers?: Readonly<Record<string, string>>;
  /** With a delay: frees its place among the held answers; the adapter calls it once the answer is sent or the client left. */
  readonly release?: () => void;
}

/** mulberry32: a small, fast 32-bit PRNG; plenty for picking which request fails (scripts/generate-content.mjs has its own copy: the scripts stay free of lib/). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isMs = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_DELAY_MS;

/**
 * Refuses options that would silently do something else (a 2^31 ms timer, a rate of 5); `fn`, the
 * entry point they were given to, starts the message as its other option errors do
 * (`startServer: failRate must be …`).
 */
export function checkControls(o: ControlOptions, fn?: string): void {
  const at = fn === undefined ? '' : `${fn}: `;
  const d = o.delay;
  if (typeof d === 'object' && d !== null) {
    if (isMs(d.min) && isMs(d.max) && d.min > d.max)
      throw new RangeError(`${at}delay ${JSON.stringify(d)}: min is above max; write { min: ${d.max}, max: ${d.min} }`);
    const others = Object.keys(d).filter((k) => k !== 'min' && k !== 'max');
    if (others.length > 0) throw new RangeError(`${at}delay takes min and max only, got ${others.map((k) => `'${k}'`).join(', ')} too`);
    if (!isMs(d.min) || !isMs(d.max) || d.min > d.max)
      throw new RangeError(`${at}delay must be { min, max } with integers 0 ≤ min ≤ max ≤ ${MAX_DELAY_MS} (ms), got ${JSON.stringify(d)}`);
  } else if (d !== undefined && !isMs(d)) {
    throw new RangeError(`${at}delay must be an integer from 0 to ${MAX_DELAY_MS} (ms), got ${shownValue(d)}`);
  }
  if (o.failRate !== undefined && !(typeof o.failRate === 'number' && o.failRate >= 0 && o.failRate <= 1))
    throw new RangeError(`${at}failRate must be a number from 0 to 1, got ${shownValue(o.failRate)}`);
  if (o.failStatus !== undefined && !FAIL_STATUSES.includes(o.failStatus))
    throw new RangeError(`${at}failStatus must be one of ${FAIL_STATUSES.join(', ')}, got ${shownValue(o.failStatus)}`);
  if (o.seed !== undefined && !(Number.isInteger(o.seed) && o.seed >= 0 && o.seed <= 0xffffffff))
    throw new RangeError(`${at}seed must be an integer from 0 to ${0xffffffff}, got ${shownValue(o.seed)}`);
  if (o.retryAfter !== undefined && !(Number.isInteger(o.retryAfter) && o.retryAfter >= 0 && o.retryAfter <= 86_400))
    throw new RangeError(`${at}retryAfter must be an integer from 0 to 86400 (seconds), got ${shownValue(o.retryAfter)}`);
  if (o.maxHeld !== undefined && !(Number.isInteger(o.maxHeld) && o.maxHeld >= 1 && o.maxHeld <= 1_000_000))
    throw new RangeError(`${at}maxHeld must be an integer from 1 to 1000000, got ${shownValue(o.maxHeld)}`);
  // Without failRate nothing fails with it (`failRate: 0` is a switch set elsewhere: no clash).
  if (o.failStatus !== undefined && o.failRate === undefined)
    throw new TypeError(
      `${at}failStatus is the status of failRate's failures, and no failRate was given: add failRate (e.g. failRate: 0.1), or leave failStatus out (Prefer: status=${o.failStatus} forces one per request)`,
    );
}

const PREFER_HELP = `status= takes an HTTP error status from 400 to 599 (e.g. status=503), delay= milliseconds from 0 to ${MAX_DELAY_MS} (e.g. delay=200)`;

interface Preferences {
  status?: number;
  /** How the status was asked for: `status` or Prism's `code`. */
  statusName?: string;
  delay?: number;
  /** The Preference-Applied value: the preferences understood, as sent. */
  applied: string[];
}

/**
 * `Prefer: status=503, delay=200` (RFC 7240: comma-separated, `;parameters` ignored, values may
 * be quoted). Prism's `code=` means `status=`. Other preferences (`return=minimal`, `wait=5`) are
 * not ours and are ignored, as the RFC asks; a value of ours that makes no sense is a Problem.
 */
export function parsePrefer(header: string): Preferences | Problem {
  const out: Preferences = { applied: [] };
  for (const part of header.split(',')) {
    const pref = (part.split(';')[0] as string).trim();
    const eq = pref.indexOf('=');
    const name = (eq < 0 ? pref : pref.slice(0, eq)).trim().toLowerCase();
    if (name !== 'status' && name !== 'code' && name !== 'delay') continue;
    const value =
      eq < 0
        ? ''
        : pref
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    if (name === 'delay' ? !isMs(n) : !(n >= 400 && n <= 599)) {
      const shown = pref.length > 60 ? `${pref.slice(0, 60)}…` : pref;
      return { status: 400, code: 'invalid_prefer', detail: `the header 'Prefer: ${shown}' is not understood: ${PREFER_HELP}` };
    }
    // RFC 7240: of a preference given more than once, the first counts.
    if (name === 'delay') {
      if (out.delay !== undefined) continue;
      out.delay = n;
    } else {
      if (out.status !== undefined) continue;
      out.status = n;
      out.statusName = name;
    }
    out.applied.push(`${name}=${n}`);
  }
  return out;
}

/** A code for an injected status: the API's own where it has one, else the title in snake case. */
function codeOf(status: number): string {
  if (status === 500) return 'internal_error';
  const title = STATUS_TITLES[status];
  return title ? title.toLowerCase().replace(/[^a-z]+/g, '_') : `http_${status}`;
}

/** An injected failure: what the API says when it is down, not a verdict on the request. */
function injectedProblem(status: number, why: string, retryAfter?: number): Problem {
  const detail = `${why}: the mock server injected this failure; the request itself is fine${retryAfter === undefined ? '' : ` (retry after ${retryAfter} s)`}`;
  return {
    status,
    code: codeOf(status),
    detail,
    situation: retryAfter === undefined ? { kind: 'injected' } : { kind: 'injected', retryAfter },
  };
}

export class Controls {
  readonly seed: number;
  private readonly delay: Delay;
  private readonly failRate: number;
  private readonly failStatus: FailStatus;
  private readonly prefer: boolean;
  private readonly retryAfter: number;
  private readonly failDraw: () => number;
  private readonly delayDraw: () => number;
  private readonly held: HeldAnswers;

  constructor(options: ControlOptions) {
    checkControls(options);
    this.seed = options.seed ?? Math.floor(Math.random() * 0x100000000);
    this.delay = options.delay ?? 0;
    this.failRate = options.failRate ?? 0;
    this.failStatus = options.failStatus ?? 503;
    this.prefer = options.prefer ?? false;
    this.retryAfter = options.retryAfter ?? RETRY_AFTER;
    this.held = new HeldAnswers(options.maxHeld ?? MAX_HELD);
    // Two streams: which requests fail does not depend on whether delays are drawn too.
    this.failDraw = prng(this.seed);
    this.delayDraw = prng(this.seed ^ 0x9e3779b9);
  }

  /** Anything to do at all (else the core skips `decide`). */
  get active(): boolean {
    return this.prefer || this.failRate > 0 || this.delay !== 0;
  }

  /**
   * What happens to this request; undefined: answer it at once, as usual. Only API requests fail
   * (`/api/…`, and `/api` when `apiRoot`: an elmapi3 project's own endpoint, named by its header);
   * a CORS preflight never does and ignores Prefer (browsers send none there anyway).
   */
  decide(method: string, path: string, preferHeader: string | undefined, apiRoot = true): ControlDecision | undefined {
    const preflight = method === 'OPTIONS';
    let prefs: Preferences | undefined;
    if (this.prefer && preferHeader !== undefined && !preflight) {
      const p = parsePrefer(preferHeader);
      if ('code' in p) return { delay: 0, problem: p, injected: false };
      if (p.applied.length > 0) prefs = p;
    }
    const api = !preflight && (path.startsWith('/api/') || (apiRoot && path === '/api'));
    let status: number | undefined;
    let why = '';
    if (api && prefs?.status !== undefined) {
      status = prefs.status;
      why = `forced by the request's 'Prefer: ${prefs.statusName}=${status}'`;
    } else if (api && this.failRate > 0 && this.failDraw() < this.failRate) {
      status = this.failStatus;
      why = `--fail-rate ${this.failRate} (seed ${this.seed})`;
    }
    const delay = prefs?.delay ?? this.drawDelay();
    const release = delay > 0 ? this.held.take() : undefined;
    if (delay > 0 && !release) return this.full();
    const hold = release ? { release } : {};
    if (status === undefined && prefs === undefined) return delay === 0 ? undefined : { delay, injected: false, ...hold };

    const headers: Record<string, string> = {};
    // status= on a path that never fails is not applied, and the answer says so.
    const applied = prefs?.applied.filter((a) => api || a.startsWith('delay=')) ?? [];
    if (applied.length > 0) headers['preference-applied'] = applied.join(', ');
    const retry = status === 429 || status === 503 ? this.retryAfter : undefined;
    if (retry !== undefined) headers['retry-after'] = String(retry);
    // A forced 401 carries the challenge a real one does, so a client's re-authentication path runs.
    if (status === 401) headers['www-authenticate'] = REALM;
    return status === undefined
      ? { delay, injected: false, headers, ...hold }
      : { delay, problem: injectedProblem(status, why, retry), injected: true, headers, ...hold };
  }

  /** Too many answers held back already: a 503 now, which a client retries, rather than one more open connection. */
  private full(): ControlDecision {
    const detail = `${this.held.max} answers are held back by a delay already (the server's cap, maxHeld); retry after ${this.retryAfter} s, or ask for shorter delays (Prefer: delay=…, --delay)`;
    const problem: Problem = { status: 503, code: 'too_many_delayed', detail };
    return { delay: 0, problem, injected: false, headers: { 'retry-after': String(this.retryAfter) } };
  }

  private drawDelay(): number {
    const d = this.delay;
    if (typeof d === 'number') return d;
    return d.min + Math.floor(this.delayDraw() * (d.max - d.min + 1));
  }

  /** The controls in force, for a person: `delay 100-400 ms, fail-rate 0.1 (503), seed 42`; '' when none. */
  describe(): string {
    const parts: string[] = [];
    const d = this.delay;
    if (typeof d === 'object') parts.push(`delay ${d.min}-${d.max} ms`);
    else if (d > 0) parts.push(`delay ${d} ms`);
    if (this.failRate > 0)
      parts.push(`fail-rate ${this.failRate} (${this.failStatus}${this.failStatus === 500 ? '' : `, Retry-After: ${this.retryAfter}`})`);
    // The seed only matters when something is drawn; printed so that a run can be replayed.
    if (parts.length > 0 && (this.failRate > 0 || typeof d === 'object')) parts.push(`seed ${this.seed}`);
    return parts.join(', ');
  }
}
