// Runs the built CLI inside this process and, when it exits, writes what it cost: user and system CPU
// and peak RSS from process.resourceUsage() — the figures /usr/bin/time would give, on any platform.
// argv: <report.json> <dist/cli/main.js> <cli args…>
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [report, cli, ...args] = process.argv.slice(2);
// The CLI parses process.argv as if it had been started directly.
process.argv = [process.argv[0], cli, ...args];
process.on('exit', (code) => {
  const r = process.resourceUsage();
  writeFileSync(report, JSON.stringify({ exitCode: code, userMs: r.userCPUTime / 1000, systemMs: r.systemCPUTime / 1000, maxRssMB: r.maxRSS / 1024 }));
});
await import(pathToFileURL(cli).href);
