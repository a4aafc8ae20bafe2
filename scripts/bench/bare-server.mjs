// P1 baseline: a bare node:http server answering precomputed bytes, nothing else: the brotli
// bytes when the request accepts br and there are some, else the plain ones.
//   node scripts/bench/bare-server.mjs <routes.json>   ({"/path": {"identity"?: base64, "br"?: base64}, …})
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, bodies]) => [
    path,
    Object.fromEntries(Object.entries(bodies).map(([encoding, b64]) => [encoding, Buffer.from(b64, 'base64')])),
  ]),
);
const server = createServer((req, res) => {
  const bodies = routes.get(req.url);
  const br = bodies?.br && (req.headers['accept-encoding'] ?? '').includes('br');
  const body = br ? bodies.br : bodies?.identity;
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
  if (br) headers['content-encoding'] = 'br';
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`bare server at http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
