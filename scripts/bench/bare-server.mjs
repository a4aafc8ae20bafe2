// P1 baseline: a bare node:http server answering precomputed bytes, nothing else.
//   node scripts/bench/bare-server.mjs <routes.json>   ({"/path": "<body>", …})
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, body]) => [path, Buffer.from(body)]),
);
const server = createServer((req, res) => {
  const body = routes.get(req.url);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`bare server at http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
