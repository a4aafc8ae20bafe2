#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ into lib/ by `npm install` (the prepare script).
import { runCli } from '../lib/cli.js';

runCli(process.argv.slice(2));
