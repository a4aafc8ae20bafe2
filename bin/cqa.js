#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ into lib/ by `npm install` (the prepare script).
import { main } from '../lib/cli.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err?.stack ?? String(err)); process.exitCode = 1; },
);
