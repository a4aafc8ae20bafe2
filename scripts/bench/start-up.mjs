// P7 (warm): startServer({ content }) in one process, started and closed `runs` times after one
// warm-up; prints the times in ms as JSON. What a test suite pays in each beforeAll.
//   node scripts/bench/start-up.mjs <content dir> [runs=10]
import { startServer } from '../../lib/index.js';

const [content, runs = '10'] = process.argv.slice(2);
const times = [];
for (let i = 0; i <= Number(runs); i++) {
  const t = performance.now();
  const server = await startServer({ content });
  const ms = performance.now() - t;
  await server.close();
  if (i > 0) times.push(ms);
}
console.log(JSON.stringify(times));
