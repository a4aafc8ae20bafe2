// Helpers shared by the benchmark steps: child servers, load generation, measurements.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CQA = fileURLToPath(new URL('../../bin/cqa.js', import.meta.url));

/**
 * Spawns a Node script that prints a line containing `http://127.0.0.1:<port>` once it listens.
 * Resolves to { url, child, stop() } — stop() sends SIGTERM and waits for the exit.
 */
export function spawnServer(args, { timeoutMs = 180_000, env = {} } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${args.join(' ')}\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      child.stderr.resume();
      const exited = new Promise((done) => child.once('exit', done));
      resolve({
        url: m[0],
        child,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${args.join(' ')}\n${output}`));
    });
  });
}

/** Requests per second for `url` under `connections` concurrent keep-alive clients. */
export async function load(url, { headers = {}, connections = 32, duration = 4 } = {}) {
  const r = await autocannon({ url, headers, connections, duration, pipelining: 1 });
  const failed = r.errors + r.timeouts + r.non2xx;
  if (failed > 0) throw new Error(`${url}: ${failed} failed requests (${r.non2xx} non-2xx, ${r.errors} errors)`);
  return { rps: r.requests.average, p99ms: r.latency.p99, requests: r.requests.total };
}

/** A GET whose body stays as sent (fetch would decompress it): `{ status, encoding, headers, body }`. */
export function rawGet(url, headers = {}) {
  return new Promise((ok, fail) => {
    get(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        ok({ status: res.statusCode, encoding: res.headers['content-encoding'], headers: res.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', fail);
  });
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/**
 * CPU time a process has used so far, in ms (Linux /proc; user + system). On a shared machine a
 * server's CPU time per request is steadier than its requests per second: time it spends waiting
 * for a core another process holds is not counted.
 */
export function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

/** load() of a server process, with the CPU time it spent per answered request (µs). */
export async function loadWithCpu(url, pid, options) {
  const before = cpuMsOf(pid);
  const r = await load(url, options);
  return { ...r, cpuUs: ((cpuMsOf(pid) - before) * 1000) / r.requests };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const round = (x, digits = 2) => Number(x.toFixed(digits));

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Times a child process from spawn to exit, in ms; rejects on a non-zero exit. */
export function timeChild(args, { cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      code === 0 ? resolve({ ms, output }) : reject(new Error(`exit ${code}: ${args.join(' ')}\n${output}`));
    });
  });
}

/** A TCP port that was free a moment ago on 127.0.0.1 (for servers that cannot take port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Fetches `url` until it answers (servers that print their URL before they listen). */
export async function fetchWhenUp(url, init, timeoutMs = 10_000) {
  const started = performance.now();
  for (;;) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (performance.now() - started > timeoutMs) throw err;
      await sleep(50);
    }
  }
}
