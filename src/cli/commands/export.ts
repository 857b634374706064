import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import leven from 'leven';
import { schemaPath } from '../../config/schema.js';
import { checkLockName } from '../../lock/lock.js';
import { exportConfig, ExportSelectionError, policyComment, toYaml, type ExportSelection } from '../../export/export.js';
import { kinds } from '../../kinds/index.js';
import { exportable, exportedServerWide, formatDiagnostic, scopeTypeOfWord } from '../../model/index.js';
import { connect, type ServerOptions } from '../context.js';
import { checkWritable, writeOutputFile } from '../files.js';
import { UserError, EXIT, type Output } from '../output.js';
import { inert } from '../../render/inert.js';
import { UNMAPPED_SECRET } from '../../secret.js';

export interface ExportCommandOptions extends ServerOptions {
  include?: string[];
  output?: string;
  force?: boolean;
  /** --lock-name: the apply lock's organisation (policy.apply_lock of the configs applied to this server), never exported. */
  lockName?: string;
}

/**
 * What the exported file's `$schema` names: a link that resolves where forgeform is installed. In a
 * project that has forgeform in its node_modules (npm install --save-dev forgeform), the path from the
 * file to that package's schema, which resolves for everyone who installs the project; else (a global
 * install, npm install -g) the absolute path of the schema of the forgeform that runs.
 */
export function schemaLink(outputFile: string | undefined, schemaFile = schemaPath()): string {
  const from = outputFile ? dirname(resolve(outputFile)) : process.cwd();
  for (let dir = from; ; dir = dirname(dir)) {
    const local = join(dir, 'node_modules', 'forgeform', 'schemas', 'forgeform.schema.json');
    if (existsSync(local)) return toPosix(relative(from, local));
    if (dirname(dir) === dir) return toPosix(schemaFile);
  }
}

const toPosix = (p: string) => p.split(sep).join('/');

const exportableKinds = () => [...new Set(kinds.filter(exportable).map((k) => k.configKey))];

/** The kind a word is probably a typo of ("label", "hook", "branch-protections"). */
function nearKind(word: string): string | undefined {
  const w = word.toLowerCase().replace(/-/g, '_');
  return exportableKinds().find((k) => k === `${w}s` || leven(w, k) <= 2);
}

/**
 * --include takes kinds (labels, branch_protections; users, orgs, hooks, runners), repositories or
 * globs (owner/name) and organisation names. A word that is neither a kind nor an organisation on
 * the server is an error listing the kinds (only the server can tell, since an organisation may be
 * called "hook"): it is never exported as an empty organisation.
 */
export function parseIncludes(includes: string[] | undefined): ExportSelection {
  const kindKeys = exportableKinds();
  const sel: ExportSelection = { kinds: [], scopes: {} };
  if (!includes?.length) return { ...sel, everything: true };
  for (const inc of includes) {
    const type = scopeTypeOfWord(inc);
    if (kindKeys.includes(inc)) sel.kinds.push(inc);
    else if (type) (sel.scopes[type] ??= []).push(inc);
    else throw new UserError(`--include "${inc}" is not a kind, a repository or an organisation: expected a kind (${kindKeys.join(', ')}), OWNER/REPO (globs allowed) or an organisation name`);
  }
  const serverWide = kinds.filter((k) => exportedServerWide(k) && exportable(k)).map((k) => k.configKey);
  if (!Object.values(sel.scopes).some((names) => names.length) && !sel.kinds.some((k) => serverWide.includes(k)))
    throw new UserError(`export needs, besides kinds of repositories, at least one --include OWNER/REPO (globs allowed), --include ORG, or --include ${serverWide.join('|')}; or no --include at all, for everything`);
  return sel;
}

export async function exportCommand(opts: ExportCommandOptions, out: Output): Promise<number> {
  const sel = parseIncludes(opts.include);
  const badLock = opts.lockName === undefined ? undefined : checkLockName(opts.lockName);
  if (badLock) throw new UserError(badLock.replace('policy.apply_lock', '--lock-name'));
  if (opts.lockName !== undefined) sel.lock = opts.lockName;
  // An existing file may be a config someone wrote: export replaces it only when told to.
  if (opts.output) checkWritable(opts.output, '-o', { overwrite: opts.force === true });
  const { client, server } = await connect(opts, out);
  let result;
  try {
    result = await exportConfig(client, kinds, sel, out.progress('Reading the server', () => `${client.requestCount} requests`), server);
  } catch (e) {
    if (!(e instanceof ExportSelectionError)) throw e;
    const unknownWord = (key: string) => {
      const near = nearKind(key);
      return `--include "${key}" is not a kind${near ? ` (did you mean "${near}"?)` : ''} and no organisation of this name exists on the server (or the token cannot see it); the kinds are ${exportableKinds().join(', ')}`;
    };
    // A plain word that names no organisation may be a mistyped kind.
    const mayBeKind = (key: string) => !key.includes('/') && (opts.include ?? []).includes(key);
    throw new UserError(
      e.problems.map(({ path: [, key], ...p }) => (mayBeKind(key) && /does not exist/.test(p.message) ? unknownWord(key) : formatDiagnostic({ ...p, resource: `--include "${key}"` }))).join('\n'),
    );
  }
  for (const s of result.skipped) out.stderr(out.err.yellow(`Warning: ${inert(s)}`));
  const unmapped = unmappedSecrets(result.config);
  if (unmapped.length)
    out.stderr(
      out.err.yellow(
        `Warning: ${unmapped.length} secret value${unmapped.length === 1 ? ' is' : 's are'} written as a placeholder (the server never returns one); planning the file fails at each until you map it to the variable that holds it ("\${NAME}", one you set): ${unmapped.map((p) => inert(p)).join(', ')}`,
      ),
    );
  const yaml = toYaml(result.config, schemaLink(opts.output), policyComment(result));
  if (opts.output) {
    writeOutputFile(opts.output, yaml, '-o');
    out.stderr(`Wrote ${opts.output} (${client.requestCount} requests).`);
  } else out.stdout(yaml);
  return EXIT.ok;
}

/** Where the exported config holds a secret's placeholder (UNMAPPED_SECRET), as config paths (`repos.acme/widgets.secrets.DEPLOY.value`). */
function unmappedSecrets(config: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string[]): void => {
    if (v === UNMAPPED_SECRET) out.push(path.join('.'));
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(config, []);
  return out;
}
