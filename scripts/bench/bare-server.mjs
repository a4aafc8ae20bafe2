// P1 and P8 baseline: a bare node:http server answering precomputed bytes, nothing else: the
// brotli (or gzip) bytes when the request accepts that coding and there are some, else the plain ones.
//   node scripts/bench/bare-server.mjs <routes.json>   ({"/path?query": {"identity"?: answer, "br"?: answer, "gzip"?: answer}, …})
// An answer is the body in base64 (sent with a content type and length, P8), or `{ body, headers }`:
// the whole answer another server sent, its headers too (P1).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, bodies]) => [
    path,
    Object.fromEntries(
      Object.entries(bodies).map(([encoding, answer]) =>
        typeof answer === 'string'
          ? [encoding, { body: Buffer.from(answer, 'base64') }]
          : [encoding, { body: Buffer.from(answer.body, 'base64'), headers: answer.headers }],
      ),
    ),
  ]),
);
const server = createServer((req, res) => {
  const bodies = routes.get(req.url);
  const coding = ['br', 'gzip'].find((c) => bodies?.[c] && (req.headers['accept-encoding'] ?? '').includes(c));
  const answer = coding ? bodies[coding] : bodies?.identity;
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  const { body } = answer;
  let headers = answer.headers;
  if (!headers) {
    headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
    if (coding) headers['content-encoding'] = coding;
  }
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`bare server at http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
