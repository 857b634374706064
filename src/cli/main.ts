#!/usr/bin/env node
import { withSecretRegistry } from '../secret.js';
import { Output } from './output.js';
import { reportFailure, runCommand } from './program.js';

/** The values of the secrets the run met: the process is the run, and its last message masks them too. */
const secretValues = new Set<string>();

// Whatever escapes the commands (a stray rejection in a callback) is still one line, not a stack trace.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (e: unknown) => {
    process.exit(withSecretRegistry(() => reportFailure(e, new Output()), secretValues));
  });
}

// A reader that stops early (forgeform plan | head) is not an error of forgeform's.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

process.exitCode = (await runCommand(process.argv.slice(2), { secretValues })).code;
