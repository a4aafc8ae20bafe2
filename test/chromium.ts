// Debian's Chromium, driven by playwright-core (nothing is downloaded), for the suites that run
// pages in a real browser. CQA_CHROMIUM points at another binary.
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CQA_CHROMIUM ?? '/usr/bin/chromium';

/**
 * What chromium.launch() and launchPersistentContext() take: headless, no sandbox (CI runs as
 * root), nothing fetched in the background. Throws, saying what to install, without a Chromium.
 */
export function chromiumOptions() {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: these tests run pages in a real browser. Install Debian's package ` +
        '(`apt-get update && apt-get install -y chromium`) or point CQA_CHROMIUM at a Chromium binary.',
    );
  return {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    headless: true,
    timeout: 30_000,
  };
}
