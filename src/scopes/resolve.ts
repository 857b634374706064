import picomatch from 'picomatch';
import type { Config } from '../config/types.js';
import { isApiError, type GiteaClient, type RequestOptions } from '../gitea/client.js';
import { ApiError, describeBody, ServerStopped } from '../gitea/errors.js';
import type { Shape } from '../gitea/answer.js';
import { apiPath } from '../gitea/path.js';
import { suggest } from '../config/validate.js';
import { canonicalConfig, foldName, type CanonicalNames } from './names.js';
import { inheritProblems, inheritsFromGlobs, mergeExact, withoutDrops } from './inherit.js';
import { isGlobKey, type Diagnostic, SERVER_SCOPE, type RepoFacts, type Scope, type ScopeCreationId } from '../model/index.js';

/** A scope with the config that applies to it and the config keys it came from (globs first, exact last). */
export interface ResolvedScope {
  scope: Scope;
  config: unknown;
  configKeys: string[];
}

/** The config sections that declare scopes: a scope problem's path is [section, key]. */
export type ScopeSection = 'repos' | 'orgs';

/**
 * Whether a place of the config (its path in its file) lies in a part that is planned: an entry of `repos` or `orgs`
 * that some resolved scope came from (an organisation whose read failed, a scope --target leaves out, is none), or
 * any other section. The planner judges only these parts by what their kinds declare (a secret field is known as
 * one only once its kind has been planned).
 */
export function resolvedPart(scopes: ResolvedScope[]): (path: readonly (string | number)[]) => boolean {
  const section = (rs: ResolvedScope): ScopeSection => (rs.scope.type === 'org' ? 'orgs' : 'repos');
  const planned = new Set(scopes.flatMap((rs) => rs.configKeys.map((key) => `${section(rs)}\0${key}`)));
  return ([top, key]) => (top !== 'orgs' && top !== 'repos') || planned.has(`${top}\0${String(key)}`);
}

/** A scope the config declares that cannot be resolved: a diagnostic whose path is [section, key]. */
export type ScopeProblem = Diagnostic & { path: [ScopeSection, string, ...string[]] };

interface ServerRepo {
  name: string;
  full_name: string;
  archived?: boolean;
  private?: boolean;
  owner?: { login?: string; username?: string };
}

/** A repository as scopes are resolved from it (the repository kind reads the same GET with its own shape). */
const REPO_SHAPE: Shape = { id: 'id', name: 'string', full_name: 'string', archived: 'boolean?', private: 'boolean?' };

export { isGlobKey };

/** What resolving the scopes found: the scopes, the problems, the keys the server spells otherwise, the owners whose whole repository list was read (folded) with their repositories (folded). */
export interface Resolution {
  scopes: ResolvedScope[];
  problems: ScopeProblem[];
  warnings: string[];
  names: CanonicalNames;
  listed: Map<string, Set<string>>;
}

/** Not found: the one failure that is an answer about the scope rather than about the server. */
const MISSING = Symbol('missing');

/** What the server answered where a single object was due, when it is not one. */
class ShapeError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A failure to read a scope, as one line naming it and what to do. The ApiError already carries the
 * status, the server's message and advice (401, 5xx after retries, a redirect elsewhere, a timeout).
 */
function failureMessage(what: string, e: unknown): string {
  return `cannot read ${what}: ${(e as Error).message}`;
}

type Get = <T>(path: string, opts?: RequestOptions) => Promise<T>;
type Answer<T> = T | typeof MISSING | undefined;

/**
 * The reads that resolve a config's scopes, and what they found: one per run of resolveScopes. Every failure becomes a
 * problem naming the config entry; the server's spelling of each name is kept (names), as Gitea compares names
 * case-insensitively.
 */
class ScopeReads {
  readonly problems: ScopeProblem[] = [];
  readonly names: CanonicalNames = { repos: new Map(), orgs: new Map() };
  /** Repositories by their server name (`full_name`, the server's spelling). */
  readonly facts = new Map<string, RepoFacts>();
  /** The same, by the name folded as the server compares names. */
  readonly folded = new Map<string, string>();
  readonly pending = new Map<string, string>();
  /** Owners whose repositories could not be listed: their globs already have a problem, not a warning. */
  readonly unlisted = new Set<string>();
  /** Owners whose whole repository list was read (folded) → their repositories' names (folded). */
  readonly listed = new Map<string, Set<string>>();
  /**
   * What an owner's repository list said about it: `orgs/NAME/repos` answered (an organisation, with the server's
   * spelling of its name when a repository shows it), 404 (none of that name), or undefined when it could not be
   * read. The organisation checks take that answer instead of a GET of their own.
   */
  private readonly listedAsOrg = new Map<string, Promise<string | false | undefined>>();
  private readonly orgAnswers = new Map<string, Promise<string | false | undefined>>();
  private stopped = false;

  constructor(
    private readonly config: Config,
    private readonly client: GiteaClient,
    private readonly get: Get,
    private readonly creationId: ScopeCreationId,
  ) {}

  /** Runs one read for a config entry: its value, MISSING on 404, or undefined once a problem is recorded. */
  async attempt<T>(section: ScopeSection, key: string, what: string, read: () => Promise<T>): Promise<Answer<T>> {
    try {
      return await read();
    } catch (e) {
      if (isApiError(e, 404)) return MISSING;
      // The run stopped talking to the server: said once, at the first entry it ended, not once per entry.
      if (e instanceof ServerStopped && this.stopped) return undefined;
      this.stopped ||= e instanceof ServerStopped;
      if (!(e instanceof ApiError) && !(e instanceof ShapeError)) throw e;
      this.problems.push({ path: [section, key], message: failureMessage(what, e) });
      return undefined;
    }
  }

  /** GET of one object; an answer that is not a JSON object (an empty body, a login page) is a failure. */
  async getObject<T>(path: string, shape?: Shape): Promise<T> {
    const data = await this.get<unknown>(path, shape ? { shape } : undefined);
    if (!isObject(data)) throw new ShapeError(`GET /api/v1/${path} answered ${describeBody(data)} where an object is due: something other than Gitea answers at this URL (a proxy or a login page?); check --url`);
    return data as T;
  }

  found(full: string, f: RepoFacts): void {
    this.facts.set(full, f);
    this.folded.set(foldName(full), full);
  }

  /** The repositories of one owner a glob names (`key`), as an organisation's, else as a user's. */
  async listOwner(owner: string, key: string): Promise<void> {
    this.unlisted.add(owner);
    if (isGlobKey(owner)) {
      this.problems.push({ path: ['repos', key], message: 'the owner part of a repository glob must be a plain name' });
      return;
    }
    const what = `the repositories of ${owner}`;
    let isOrg = true;
    const listing = this.attempt('repos', key, what, () => this.client.list<ServerRepo>(apiPath('orgs', owner, 'repos'), { shape: REPO_SHAPE }));
    this.listedAsOrg.set(foldName(owner), listing.then((r) => (r === undefined ? undefined : r === MISSING ? false : ownerOf(r.find(isObject)?.full_name) ?? '')));
    let repos = await listing;
    if (repos === MISSING) {
      isOrg = false;
      repos = await this.attempt('repos', key, what, () => this.client.list<ServerRepo>(apiPath('users', owner, 'repos'), { shape: REPO_SHAPE }));
    }
    if (repos === undefined) return;
    if (repos === MISSING) {
      this.problems.push({ path: ['repos', key], message: `owner "${owner}" does not exist on the server` });
      return;
    }
    this.unlisted.delete(owner);
    this.listed.set(foldName(owner), new Set(repos.flatMap((r) => (isObject(r) && typeof r.name === 'string' ? [foldName(r.name)] : []))));
    for (const r of repos) if (isObject(r) && typeof r.full_name === 'string') this.found(r.full_name, { owner: ownerOf(r.full_name) ?? owner, name: r.name, ownerIsOrg: isOrg, archived: Boolean(r.archived), private: r.private === true });
  }

  /**
   * The server's spelling of an organisation's name (memoised, compared as the server compares names), false when
   * there is none of that name, or undefined once a problem is recorded for `key`.
   */
  orgName(section: ScopeSection, key: string, name: string): Promise<string | false | undefined> {
    let p = this.orgAnswers.get(foldName(name));
    if (!p) {
      const ask = () =>
        this.attempt(section, key, `organisation ${name}`, () => this.getObject<{ username?: unknown; name?: unknown }>(apiPath('orgs', name))).then((r) =>
          r === undefined ? undefined : r === MISSING ? false : String(typeof r.username === 'string' ? r.username : (r.name ?? name)),
        );
      const listed = this.listedAsOrg.get(foldName(name));
      // Its repository list already answered as an organisation's, or 404: no GET of its own (but for
      // the spelling of an organisation without repositories, when it is declared in orgs:).
      p = listed ? listed.then((answer) => (answer === undefined || (answer === '' && section === 'orgs') ? ask() : answer === '' ? name : answer)) : ask();
      this.orgAnswers.set(foldName(name), p);
    }
    return p;
  }

  /** An organisation the config declares, as a scope (waiting for its create when the config makes it), or none. */
  async orgScope(key: string, cfg: unknown): Promise<ResolvedScope | undefined> {
    const exists = await this.orgName('orgs', key, key);
    if (exists === undefined) return undefined;
    const scope: Scope = { type: 'org', name: exists || key };
    if (scope.name !== key) this.names.orgs.set(key, scope.name);
    if (!exists) {
      // An org the config can create (owner:) may be missing: its other kinds wait for the create.
      if (!(cfg as { owner?: string }).owner) {
        this.problems.push({ path: ['orgs', key], message: `organisation "${key}" does not exist on the server`, hint: 'add owner: USER to create it' });
        return undefined;
      }
      const id = this.creationId('org', key);
      if (id) scope.pendingCreate = id;
    }
    return { scope, config: cfg, configKeys: [key] };
  }

  /** The owner of a repository to create as it will be spelled: the server's, or the config's that creates it. */
  private async newOwner(key: string, owner: string): Promise<{ name: string; isOrg: boolean } | undefined> {
    const declared = Object.keys(this.config.orgs ?? {}).find((o) => foldName(o) === foldName(owner));
    if (declared !== undefined) return { name: this.names.orgs.get(declared) ?? declared, isOrg: true };
    const org = await this.orgName('repos', key, owner);
    if (org === undefined) return undefined;
    if (org) return { name: org, isOrg: true };
    return { name: Object.keys(this.config.users ?? {}).find((u) => foldName(u) === foldName(owner)) ?? owner, isOrg: false };
  }

  /** A repository the config names exactly: found in a listing, read alone, or to be created (create:, mirror:). */
  async exactRepo(key: string): Promise<void> {
    const listed = this.folded.get(foldName(key));
    if (listed !== undefined) {
      if (listed !== key) this.names.repos.set(key, listed);
      return;
    }
    const [owner, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const r = await this.attempt('repos', key, `repository ${key}`, () => this.getObject<ServerRepo>(apiPath('repos', owner, name), REPO_SHAPE));
    if (r === undefined) return;
    if (r !== MISSING) {
      const full = typeof r.full_name === 'string' && foldName(r.full_name) === foldName(key) ? r.full_name : key;
      const isOrg = await this.orgName('repos', key, ownerOf(full) ?? owner);
      if (isOrg === undefined) return;
      this.found(full, { owner: ownerOf(full) ?? owner, name: full.slice(full.indexOf('/') + 1), ownerIsOrg: isOrg !== false, archived: Boolean(r.archived), private: r.private === true });
      if (full !== key) this.names.repos.set(key, full);
      return;
    }
    const cfg = this.config.repos?.[key] as { create?: unknown; mirror?: unknown } | undefined;
    // A missing repository the config creates, empty (create:) or as a pull mirror (mirror:): its kinds wait for it.
    if (!cfg?.create && !cfg?.mirror) {
      this.problems.push({ path: ['repos', key], message: `repository ${key} does not exist on the server (or the token cannot see it); add create: {} to create it` });
      return;
    }
    const o = await this.newOwner(key, owner);
    if (o === undefined) return;
    const full = `${o.name}/${name}`;
    // Gitea creates a repository public unless told (or unless the server forces private: then it is more private than known, never less).
    const made = (cfg.create ?? cfg.mirror) as { private?: unknown } | undefined;
    this.found(full, { owner: o.name, name, ownerIsOrg: o.isOrg, archived: false, private: made?.private === true });
    if (full !== key) this.names.repos.set(key, full);
    const id = this.creationId('repo', full);
    if (id) this.pending.set(full, id);
  }
}

/**
 * Turns the orgs and repos of a config into concrete scopes: globs are expanded against the server's
 * repository lists (one paged list per owner), and every repo gets the deep merge of the glob entries
 * that match it with its exact entry on top. Anything the server does not answer as expected becomes
 * a problem naming the config entry (the planner puts file:line:col on it), never an exception.
 */
export async function resolveScopes(
  config: Config,
  client: GiteaClient,
  /** The change that creates a missing scope the config can create (asked of the kinds). */
  creationId: ScopeCreationId,
  selectsScope: (scope: Scope) => boolean = () => true,
  /** The GET to use for single objects: the planner passes its memoised one, so kinds can reuse the answers. */
  get: Get = (path, opts) => client.get(path, opts),
): Promise<Resolution> {
  const reads = new ScopeReads(config, client, get, creationId);
  const { problems, names, facts } = reads;
  const repoEntries = Object.entries(config.repos ?? {});
  const globs = repoEntries.filter(([k]) => isGlobKey(k));
  // Two keys the server takes for one name: neither is resolved, the plan cannot say which one is meant.
  const twins = caseTwins('repos', repoEntries.map(([k]) => k).filter((k) => !isGlobKey(k)), problems);
  const orgTwins = caseTwins('orgs', Object.keys(config.orgs ?? {}), problems);
  const exact = repoEntries.filter(([k]) => !isGlobKey(k) && !twins.has(k));
  for (const [key, entry] of globs) problems.push(...inheritProblems(key, entry));
  const globOwners = [...new Map(globs.map(([k]) => k.slice(0, k.indexOf('/'))).map((o) => [foldName(o), o])).values()];

  const scopes: ResolvedScope[] = [{ scope: { ...SERVER_SCOPE }, config, configKeys: [] }];
  const orgScopes = await Promise.all([
    ...globOwners.map((owner) => reads.listOwner(owner, globs.find(([k]) => foldName(k).startsWith(`${foldName(owner)}/`))![0]).then(() => undefined)),
    ...Object.entries(config.orgs ?? {}).map(([key, cfg]) => (orgTwins.has(key) || !selectsScope({ type: 'org', name: key }) ? undefined : reads.orgScope(key, cfg))),
  ]);
  // In the order of the config's entries, whatever order the server answered in.
  for (const rs of orgScopes) if (rs) scopes.push(rs);
  await Promise.all(exact.map(([key]) => reads.exactRepo(key)));

  const merged = repoScopes(config, { globs, exact, facts, pending: reads.pending, unlisted: reads.unlisted, names }, selectsScope);
  scopes.push(...merged.scopes);
  // The server scope's kinds (the repositories and organisations to create) read the keys as the server spells them.
  scopes[0]!.config = canonicalConfig(config, names);
  return { scopes, problems: problems.map((p) => withNearName(p, config, facts)), warnings: merged.warnings, names, listed: reads.listed };
}

/** What the reads found of the repositories a config names: the keys, each repository's facts, creates pending. */
interface RepoFindings {
  globs: [string, unknown][];
  exact: [string, unknown][];
  facts: Map<string, RepoFacts>;
  pending: Map<string, string>;
  /** Owners whose repositories could not be listed. */
  unlisted: Set<string>;
  names: CanonicalNames;
}

/**
 * A scope for every repository found, its config the deep merge of the globs that match it with its exact entry on
 * top; warnings for a glob that matches nothing and for two globs that set one field differently.
 */
function repoScopes(config: Config, found: RepoFindings, selectsScope: (scope: Scope) => boolean): { scopes: ResolvedScope[]; warnings: string[] } {
  const { globs, exact, facts, pending, unlisted, names } = found;
  const scopes: ResolvedScope[] = [];
  const warnings: string[] = [];
  // Globs match as the server compares names: `acme/*` is every repository of Acme, but those its exclude: names.
  const matchers = globs.map(([k, cfg]) => globMatcher(k, cfg));
  const exactKey = new Map(exact.map(([k]) => [names.repos.get(k) ?? k, k]));
  const selected = new Set<string>([...exactKey.keys()].filter((k) => facts.has(k)));
  for (const full of facts.keys()) if (matchers.some((m) => m.match(full))) selected.add(full);
  // A glob that matches nothing is most often a typo: say so rather than plan nothing in silence.
  for (const m of matchers) {
    const owner = m.key.slice(0, m.key.indexOf('/'));
    if (!unlisted.has(owner) && ![...facts.keys()].some((full) => m.match(full)))
      warnings.push(`repos "${m.key}" matches no repository on the server: nothing is planned for it`);
  }
  for (const m of matchers) {
    const owner = m.key.slice(0, m.key.indexOf('/'));
    for (const x of unlisted.has(owner) ? [] : m.excludes)
      if (![...facts.keys()].some((full) => m.covers(full) && x.match(full))) warnings.push(`exclude "${x.pattern}" of repos "${m.key}" matches none of its repositories: nothing is excluded by it`);
  }

  // Two globs matching one repository that set one field differently: the later wins, said once per pair and field.
  const overlaps = new Map<string, string>();
  for (const full of [...selected].sort()) {
    const repo = facts.get(full)!;
    const scope: Scope = { type: 'repo', name: full, repo, ...(pending.has(full) ? { pendingCreate: pending.get(full)! } : {}) };
    if (!selectsScope(scope)) continue;
    const written = exactKey.get(full);
    const exactCfg = written === undefined ? undefined : config.repos?.[written];
    const applying = inheritsFromGlobs(exactCfg) ? matchers.filter((m) => m.match(full)) : [];
    const configKeys = applying.map((m) => m.key);
    let merged: unknown = {};
    const setBy = new Map<string, string>();
    for (const m of applying) {
      for (const leaf of leaves(m.cfg)) {
        const first = setBy.get(leaf.path);
        const pair = `${first} ${m.key} ${leaf.path}`;
        if (first !== undefined && first !== m.key && !overlaps.has(pair) && leaf.differs(merged)) overlaps.set(pair, `repos "${first}" and "${m.key}" both set ${leaf.path} (for ${full}, and any other repository both match) to different values: the later one, "${m.key}", wins; set it in one of them, or in the repository's own entry`);
        setBy.set(leaf.path, m.key);
      }
      merged = deepMerge(merged, m.cfg);
    }
    if (written !== undefined && exactCfg) {
      const own = mergeExact(merged, exactCfg, full, deepMerge);
      merged = own.config;
      warnings.push(...own.warnings);
      configKeys.push(written);
    }
    scopes.push({ scope, config: merged, configKeys });
  }
  warnings.push(...overlaps.values());
  return { scopes, warnings };
}

/**
 * A missing owner or repository is most often a typo: the nearest name the config or the server's answers give
 * (`acmee` → `acme`), as the problem's hint. Nothing more is read for it.
 */
function withNearName(problem: ScopeProblem, config: Config, facts: ReadonlyMap<string, RepoFacts>): ScopeProblem {
  const owner = /^owner "([^"]+)" does not exist/.exec(problem.message)?.[1];
  const repo = /^repository (\S+) does not exist/.exec(problem.message)?.[1];
  if (problem.hint || (owner === undefined && repo === undefined)) return problem;
  const named = (own: string) => [...new Set([...Object.keys(config.repos ?? {}).filter((k) => !isGlobKey(k)), ...facts.keys()])].filter((r) => r !== own);
  const ownersBut = (own: string) => [...new Set([...Object.keys(config.orgs ?? {}), ...named(own).map((k) => k.slice(0, k.indexOf('/'))), ...[...facts.values()].map((f) => f.owner)])];
  let near: string | undefined;
  if (owner !== undefined) near = suggest(owner, ownersBut('').filter((o) => o !== owner));
  else if (repo !== undefined) {
    const [o, name] = [repo.slice(0, repo.indexOf('/')), repo.slice(repo.indexOf('/') + 1)];
    const owners = ownersBut(repo);
    // An owner no other entry names is the likelier typo (`acmee/gadgets`); else the repository's own name.
    const nearOwner = owners.includes(o) ? undefined : suggest(o, owners);
    near = nearOwner !== undefined ? `${nearOwner}/${name}` : suggest(repo, named(repo));
  }
  return near === undefined ? problem : { ...problem, hint: `did you mean "${near}"?` };
}

/** The owner part of a repository's full name. */
function ownerOf(full: unknown): string | undefined {
  return typeof full === 'string' && full.includes('/') ? full.slice(0, full.indexOf('/')) : undefined;
}

/**
 * Keys of one section that differ only in case name one object on the server (src/scopes/names.ts):
 * each after the first is a problem at its place, and none of them is resolved.
 */
function caseTwins(section: ScopeSection, keys: string[], problems: ScopeProblem[]): Set<string> {
  const first = new Map<string, string>();
  const twins = new Set<string>();
  const what = section === 'repos' ? 'repository' : 'organisation';
  for (const key of keys) {
    const other = first.get(foldName(key));
    if (other === undefined) {
      first.set(foldName(key), key);
      continue;
    }
    twins.add(key).add(other);
    problems.push({ path: [section, key], message: `${what} "${key}" and "${other}" differ only in case: Gitea compares names case-insensitively, so both name one ${what}; declare it once` });
  }
  return twins;
}

/** A glob entry as it selects repositories: its pattern less what its `exclude:` names, and its config without that list. */
function globMatcher(key: string, entry: unknown) {
  // inherit: and null (refused on a glob, src/scopes/inherit.ts) give the kinds nothing.
  const { exclude, inherit: _inherit, ...cfg } = withoutDrops(isPlainObject(entry) ? entry : {});
  const owner = key.slice(0, key.indexOf('/'));
  const covers = picomatch(key, { dot: true, nocase: true });
  const excludes = (Array.isArray(exclude) ? exclude : []).filter((x): x is string => typeof x === 'string').map((x) => {
    const pattern = x.includes('/') ? x : `${owner}/${x}`;
    return { pattern, match: picomatch(pattern, { dot: true, nocase: true }) };
  });
  return { key, cfg: cfg as unknown, covers, excludes, match: (full: string) => covers(full) && !excludes.some((x) => x.match(full)) };
}

/** The scalar (or list) values a glob's config sets, by dotted path, and whether each differs from what is merged so far. */
function leaves(cfg: unknown, path: string[] = []): { path: string; differs: (merged: unknown) => boolean }[] {
  if (!isPlainObject(cfg)) {
    const at = [...path];
    return [{ path: at.join('.'), differs: (merged) => JSON.stringify(valueAt(merged, at)) !== JSON.stringify(cfg) }];
  }
  return Object.entries(cfg).flatMap(([k, v]) => leaves(v, [...path, k]));
}

function valueAt(v: unknown, path: string[]): unknown {
  let node = v;
  for (const k of path) node = isPlainObject(node) ? node[k] : undefined;
  return node;
}

/** Objects merge key by key; anything else (lists included) is replaced by the later value. */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
    return out;
  }
  return b;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
