#!/usr/bin/env node
import { Output } from './output.js';
import { reportFailure, runCommand } from './program.js';

// Whatever escapes the commands (a stray rejection in a callback) is still one line, not a stack trace.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (e: unknown) => {
    process.exit(reportFailure(e, new Output()));
  });
}

// A reader that stops early (forgeform plan | head) is not an error of forgeform's.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

process.exitCode = (await runCommand(process.argv.slice(2))).code;
