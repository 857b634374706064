import type { Config } from '../config/types.js';
import type { Scope } from '../model/index.js';
import { narrowConfig } from '../scopes/sections.js';
import { UserError } from './output.js';

/**
 * --shard K/N: one of N parts of the configuration, so that a CI matrix of N jobs plans and applies
 * a large forge in parallel (issue 12). The parts are cut by owner, not by repository: an
 * organisation, its repositories and their issues resolve labels and creations against each other
 * (a repository's issues name the organisation's labels; a new organisation's repositories wait for
 * its create), so they must be planned in one job. Server-wide objects (users, admin hooks, runners)
 * belong to shard 1. The owner's hash is stable (FNV-1a of its name), so every run, on every
 * machine, cuts the same parts, and the N plans together hold exactly the changes of the whole plan.
 */
export interface Shard {
  index: number;
  count: number;
  /** Whether a repository or organisation scope is in this shard. */
  scope: (scope: Scope) => boolean;
  /** Whether an object of a server-wide kind is in this shard, by the kind's selector type and name. */
  object: (type: string, name: string) => boolean;
  /** Whether an owner (an organisation, or the OWNER of OWNER/NAME) and what it holds are in this shard. */
  owner: (name: string) => boolean;
}

/** A shard's configuration: its owners' organisations and repositories; the server-wide sections in shard 1 only. */
export function shardConfig(config: Config, shard: Shard): Config {
  return narrowConfig(config, { entry: (_section, key) => shard.owner(key), section: () => shard.index === 1 });
}

/** 32-bit FNV-1a: small, stable across Node versions and platforms (unlike any built-in hash). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The owner of a scope's name: an organisation's own name, the part of OWNER/NAME before the slash. */
const ownerOf = (name: string) => {
  const slash = name.indexOf('/');
  return (slash < 0 ? name : name.slice(0, slash)).toLowerCase();
};

/**
 * Parses --shard K/N. `scopeTypes` are the selector types of the kinds that create scopes (org,
 * repo): their objects go with their scope; every other server-wide object goes to shard 1.
 */
export function parseShard(text: string | undefined, scopeTypes: Set<string>): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(count) && count >= 1 && index >= 1 && index <= count))
    throw new UserError(`--shard must be K/N with 1 ≤ K ≤ N (the K-th of N parts), got "${text}"`);
  const mine = (name: string) => fnv1a(ownerOf(name)) % count === index - 1;
  return {
    index,
    count,
    scope: (scope) => (scope.type === 'server' ? index === 1 : mine(scope.name)),
    object: (type, name) => (scopeTypes.has(type) ? mine(name) : index === 1),
    owner: mine,
  };
}
