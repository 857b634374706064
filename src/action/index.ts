/**
 * The entry of the committed bundle `dist/action/index.js`. One file plays two roles, so that the
 * action needs no `node_modules` on the runner: the action itself, and — re-run by the action
 * with {@link CLI_ROLE} set — the forgeform CLI that the action wraps. The action only ever talks
 * to the CLI through its documented surface (flags, exit codes, `--format json`, plan files).
 */
import { CLI_ROLE } from './cli.js';

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  // Old act_runner images ship Node 16: say so plainly instead of failing on a syntax error later.
  process.stdout.write(`::error::forgeform needs Node 20 or newer on the runner; this one has Node ${process.versions.node}. Use a newer runner image or add actions/setup-node before this step.\n`);
  process.exit(1);
}

if (process.env[CLI_ROLE] === 'cli') {
  await import('../cli/main.js');
} else {
  const { runAction } = await import('./run.js');
  await runAction();
}
