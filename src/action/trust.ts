/**
 * Where the managed server's token may go. A pull request controls the configuration, so nothing
 * in the configuration may choose the server: the action takes the server from its `url` input (or
 * FORGEFORM_URL), which only the workflow's own definition sets, and refuses a configuration whose
 * `server.url` names another one, instead of quietly planning against a server nobody reviewed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { InputError } from './inputs.js';

function yamlFiles(path: string): string[] {
  try {
    if (statSync(path).isDirectory())
      return readdirSync(path)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(path, f));
    return [path];
  } catch {
    return [];
  }
}

/** `server.url` of each config file that sets one (files the CLI cannot read are its to report). */
export function configServerUrls(configs: string[], cwd: string): { file: string; url: string }[] {
  const found: { file: string; url: string }[] = [];
  for (const c of configs)
    for (const file of yamlFiles(resolve(cwd, c))) {
      try {
        const doc = parse(readFileSync(file, 'utf8')) as { server?: { url?: unknown } } | null;
        const url = doc?.server?.url;
        if (typeof url === 'string' && url.trim()) found.push({ file: c === file ? c : file.slice(cwd.length + 1), url: url.trim() });
      } catch {
        /* a YAML error: the CLI reports it at its place */
      }
    }
  return found;
}

function origin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The managed server: the `url` input, else FORGEFORM_URL; the config may only name the same one. */
export function managedServer(input: string, env: NodeJS.ProcessEnv, configs: string[], cwd: string): string {
  const url = input.trim() || (env.FORGEFORM_URL ?? '').trim();
  if (!url)
    throw new InputError(
      'the input url (or the variable FORGEFORM_URL) is required: the server the token is sent to must be fixed by the workflow, not by the configuration a pull request can edit',
    );
  const mine = origin(url);
  if (!mine) throw new InputError(`the input url "${url}" is not a URL`);
  for (const { file, url: named } of configServerUrls(configs, cwd)) {
    if (origin(named) !== mine)
      throw new InputError(`${file} sets server.url to ${named}, but this workflow manages ${url}: refusing to plan or apply a configuration written for another server`);
  }
  return url;
}
