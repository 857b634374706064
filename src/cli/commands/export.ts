import { writeFileSync } from 'node:fs';
import { exportConfig, toYaml } from '../../export/export.js';
import { kinds } from '../../kinds/index.js';
import { makeClient, type ServerOptions } from '../context.js';
import { EXIT, UserError, type Output } from '../output.js';

export interface ExportCommandOptions extends ServerOptions {
  include?: string[];
  output?: string;
}

/** --include takes kinds (labels, branch_protections; users, orgs, hooks, runners), repositories or globs (owner/name) and org names. */
export async function exportCommand(opts: ExportCommandOptions, out: Output): Promise<number> {
  const kindKeys = new Set(kinds.map((k) => k.configKey));
  const sel = { kinds: [] as string[], repos: [] as string[], orgs: [] as string[] };
  for (const inc of opts.include ?? []) {
    if (kindKeys.has(inc)) sel.kinds.push(inc);
    else if (inc.includes('/')) sel.repos.push(inc);
    else if (/^[\w.-]+$/.test(inc)) sel.orgs.push(inc);
    else throw new UserError(`--include "${inc}": expected a kind (${[...kindKeys].join(', ')}), owner/repo (globs allowed) or an organisation`);
  }
  const serverWide = new Set(kinds.filter((k) => k.scopeType === 'server' && k.exportable !== false).map((k) => k.configKey));
  if (!sel.repos.length && !sel.orgs.length && !sel.kinds.some((k) => serverWide.has(k)))
    throw new UserError(`export needs at least one --include owner/repo (globs allowed), --include ORG, or --include ${[...serverWide].join('|')}`);
  const client = makeClient(opts, out);
  let config;
  try {
    config = await exportConfig(client, kinds, sel, out.progress('Reading the server'));
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  const yaml = toYaml(config);
  if (opts.output) {
    writeFileSync(opts.output, yaml);
    out.stderr(`Wrote ${opts.output} (${client.requestCount} requests).`);
  } else out.stdout(yaml);
  return EXIT.ok;
}
