// The benchmark forge: a sandbox seed and a forgeform config that differ in about 10% of the objects,
// generated from a fixed pseudo-random sequence so that every run (and every machine) plans the same
// changes. Besides the two files it returns the forge's shape before and after apply, and the writes a
// minimal apply needs, worked out here from the generated data — never from what forgeform sends.

// The generator is the one the sandbox and the fuzz test use (npm run bench builds dist/ first).
import { seededRandom } from '../dist/random.js';

/** Sizes of issue 12: `large` is the 1,000-repository forge, `small` a tenth of it for a quick run. */
export const SIZES = {
  large: { repos: 1000, reposPerOrg: 250, labelsPerRepo: 30, users: 5000, hooks: 50, issuesPerRepo: 2, teamsPerOrg: 20, membersPerTeam: 12, reposPerTeam: 8, collaboratorsPerRepo: 3 },
  small: { repos: 100, reposPerOrg: 250, labelsPerRepo: 30, users: 500, hooks: 5, issuesPerRepo: 2, teamsPerOrg: 20, membersPerTeam: 12, reposPerTeam: 8, collaboratorsPerRepo: 3 },
};

/** Share of objects that drift on the server (changed, missing, or extra and pruned). */
const DRIFT = 0.1;

/** Every repository declares `main` and `release/*`. */
const RULES_PER_REPO = 2;

export const USER_PASSWORD_VAR = 'BENCH_USER_PASSWORD';

// A seeded generator (mulberry32): Math.random would make runs incomparable.
const random = seededRandom;

const pad = (n, width) => String(n).padStart(width, '0');

/** 30 labels named as teams name them (kind/, area/, priority/, status/), the set every repository should have. */
function labelSet(count) {
  const groups = ['kind', 'area', 'priority', 'status'];
  return Array.from({ length: count }, (_, i) => ({
    name: `${groups[i % groups.length]}/${pad(Math.floor(i / groups.length), 2)}`,
    color: ((i * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6),
    description: `Label ${i} of the bench forge`,
  }));
}

/** Picks one of the weighted choices, or undefined (no drift) with probability 1 - DRIFT. */
function drift(rnd, choices) {
  if (rnd() >= DRIFT) return undefined;
  let x = rnd() * choices.reduce((s, [, w]) => s + w, 0);
  for (const [name, w] of choices) if ((x -= w) < 0) return name;
  return choices.at(-1)[0];
}

const yamlString = (s) => JSON.stringify(s);

/**
 * @param {keyof typeof SIZES} size
 * @returns the seed (sandbox seed object), config (YAML text), shape before and after apply, the writes a
 *   minimal apply sends by kind and method, and the declared objects per kind (for the per-object count).
 */
export function generateForge(size) {
  const s = SIZES[size];
  if (!s) throw new Error(`unknown size "${size}": small or large`);
  const rnd = random(12);
  const labels = labelSet(s.labelsPerRepo);
  const orgCount = Math.ceil(s.repos / s.reposPerOrg);
  const orgs = Array.from({ length: orgCount }, (_, i) => `bench-${i + 1}`);

  const writes = {};
  const write = (kind, method) => {
    writes[kind] ??= {};
    writes[kind][method] = (writes[kind][method] ?? 0) + 1;
  };
  const totalWrites = () => Object.values(writes).reduce((n, byMethod) => n + Object.values(byMethod).reduce((a, b) => a + b, 0), 0);
  const declared = { repos: s.repos, labels: 0, branch_protections: 0, users: s.users, hooks: s.hooks, issues: 0, teams: 0, collaborators: 0 };
  let labelDeletes = 0;

  // ── users ────────────────────────────────────────────────────────────────────────────────────────
  const seedUsers = [{ username: 'root', admin: true, email: 'root@example.test' }];
  const userLines = [];
  let usersCreated = 0;
  for (let i = 1; i <= s.users; i++) {
    const name = `user-${pad(i, 5)}`;
    const want = { email: `${name}@example.test`, full_name: `Bench User ${i}` };
    const d = drift(rnd, [['full_name', 7], ['missing', 3]]);
    if (d === 'missing') {
      write('user', 'POST');
      usersCreated++;
      userLines.push(`  ${name}: { email: ${want.email}, full_name: ${yamlString(want.full_name)}, password: "\${${USER_PASSWORD_VAR}}", must_change_password: true }`);
      continue;
    }
    if (d === 'full_name') write('user', 'PATCH');
    seedUsers.push({ username: name, email: want.email, full_name: d === 'full_name' ? `Old Name ${i}` : want.full_name });
    userLines.push(`  ${name}: { email: ${want.email}, full_name: ${yamlString(want.full_name)} }`);
  }

  // ── admin hooks (system) ─────────────────────────────────────────────────────────────────────────
  const seedHooks = [];
  const hookLines = [];
  let hooksCreated = 0;
  const hookUrl = (i) => `https://ci.example.test/hooks/${pad(i, 3)}`;
  for (let i = 1; i <= s.hooks; i++) {
    hookLines.push(`  - { url: ${hookUrl(i)}, events: [push, issues], content_type: json, branch_filter: main, active: true }`);
    const d = drift(rnd, [['events', 7], ['missing', 3]]);
    if (d === 'missing') {
      write('hook', 'POST');
      hooksCreated++;
      continue;
    }
    if (d === 'events') write('hook', 'PATCH');
    seedHooks.push({ type: 'gitea', config: { url: hookUrl(i), content_type: 'json', is_system_webhook: true }, events: d === 'events' ? ['push'] : ['push', 'issues'], branch_filter: 'main', active: true });
  }
  // One hook nobody declares any more: pruned.
  seedHooks.push({ type: 'gitea', config: { url: 'https://ci.example.test/hooks/retired', content_type: 'json', is_system_webhook: true }, events: ['push'], active: true });
  write('hook', 'DELETE');

  // ── repositories: labels, branch protections, chosen issues ──────────────────────────────────────
  const seedRepos = [];
  const repoLines = [];
  const shapeRepos = [];
  for (let r = 0; r < s.repos; r++) {
    const org = orgs[Math.floor(r / s.reposPerOrg)];
    const name = `${org}/repo-${pad(r, 4)}`;
    const writesBefore = totalWrites();
    const seededLabels = [];
    let labelsCreated = 0;
    for (const l of labels) {
      declared.labels++;
      const d = drift(rnd, [['color', 2], ['description', 1], ['missing', 1]]);
      if (d === 'missing') {
        write('label', 'POST');
        labelsCreated++;
        continue;
      }
      if (d) write('label', 'PATCH');
      seededLabels.push({ ...l, ...(d === 'color' ? { color: 'cccccc' } : {}), ...(d === 'description' ? { description: 'outdated' } : {}) });
    }
    // Labels nobody declares any more (policy.prune: labels): each costs one issue count in the plan.
    if (rnd() < DRIFT) {
      seededLabels.push({ name: `legacy/${pad(r, 4)}`, color: '999999', description: 'retired' });
      write('label', 'DELETE');
      labelDeletes++;
    }

    const approvals = 1 + (r % 3);
    const rules = [
      { rule_name: 'main', enable_push: true, required_approvals: approvals },
      { rule_name: 'release/*', enable_push: false, required_approvals: 2 },
    ];
    const seededRules = [];
    for (const rule of rules) {
      declared.branch_protections++;
      const d = drift(rnd, [['approvals', 3], ['missing', 1]]);
      if (d === 'missing') {
        write('branch_protection', 'POST');
        continue;
      }
      if (d) write('branch_protection', 'PATCH');
      seededRules.push(d ? { ...rule, required_approvals: rule.required_approvals + 1 } : rule);
    }
    if (rnd() < DRIFT / 2) {
      seededRules.push({ rule_name: 'legacy', enable_push: true });
      write('branch_protection', 'DELETE');
    }

    const seededNames = new Set(seededLabels.map((l) => l.name));
    const issues = [];
    const issueLines = [];
    for (let k = 1; k <= s.issuesPerRepo; k++) {
      declared.issues++;
      const label = labels[(r + k) % labels.length].name;
      const d = drift(rnd, [['label', 1], ['state', 1]]);
      const carries = d !== 'label' && seededNames.has(label);
      if (!carries) write('issue', 'POST');
      if (d === 'state') write('issue', 'PATCH');
      issues.push({ title: `Bench issue ${k}`, body: 'Generated by npm run bench.', state: d === 'state' ? 'closed' : 'open', labels: carries ? [label] : [] });
      issueLines.push(`      ${k}: { labels: [${label}], state: open }`);
    }

    seedRepos.push({ name, labels: seededLabels, branch_protections: seededRules, issues });
    repoLines.push(
      `  ${name}:`,
      '    branch_protections:',
      ...rules.map((rule) => `      ${yamlString(rule.rule_name)}: { enable_push: ${rule.enable_push}, required_approvals: ${rule.required_approvals} }`),
      '    issues:',
      ...issueLines,
    );
    shapeRepos.push({ org, labels: seededLabels.length, labelsCreated, writes: totalWrites() - writesBefore, protections: seededRules.length, issues: issues.length, chosenIssues: s.issuesPerRepo });
  }

  // ── teams (issue 21): per organisation, members and repositories as sets, one extra team pruned ────
  // Their own random stream, so that the drift of everything above stays what it was.
  const trnd = random(21);
  const existingUsers = seedUsers.slice(1).map((u) => u.username);
  const teamLines = [];
  const seedTeams = new Map(orgs.map((org) => [org, []]));
  const shapeTeams = new Map(orgs.map((org) => [org, { before: 0, after: 0, lists: 0, creates: 0 }]));
  for (const [o, org] of orgs.entries()) {
    const orgRepos = shapeRepos.filter((r) => r.org === org).map((_, k) => `repo-${pad(o * s.reposPerOrg + k, 4)}`);
    teamLines.push(`  ${org}:`, '    teams:', '      Owners: { members: [root] }');
    const t = shapeTeams.get(org);
    // Owners exists in every organisation; its members are read (one list).
    t.before = 1;
    t.lists += 1;
    for (let i = 1; i <= s.teamsPerOrg; i++) {
      const name = `team-${pad(i, 2)}`;
      const members = Array.from({ length: s.membersPerTeam }, (_, k) => existingUsers[(o * 997 + i * 31 + k * 7) % existingUsers.length]);
      const repos = Array.from({ length: s.reposPerTeam }, (_, k) => orgRepos[(i * 3 + k) % orgRepos.length]);
      const uniqueMembers = [...new Set(members)];
      const uniqueRepos = [...new Set(repos)];
      declared.teams++;
      teamLines.push(`      ${name}: { permission: admin, members: [${uniqueMembers.join(', ')}], repositories: [${uniqueRepos.join(', ')}] }`);
      const d = drift(trnd, [['members', 6], ['repos', 2], ['missing', 2]]);
      if (d === 'missing') {
        write('team', 'POST');
        t.creates++;
        for (let k = 0; k < uniqueMembers.length + uniqueRepos.length; k++) write('team', 'PUT');
        continue;
      }
      t.before++;
      t.lists += 2;
      // members: one member gone from the server (PUT), one extra there (DELETE); repos: one missing (PUT).
      const seededMembers = d === 'members' ? [...uniqueMembers.slice(1), existingUsers[(o * 13 + i) % existingUsers.length]].filter((m, k, all) => all.indexOf(m) === k) : uniqueMembers;
      const seededRepos = d === 'repos' ? uniqueRepos.slice(1) : uniqueRepos;
      for (const m of uniqueMembers) if (!seededMembers.includes(m)) write('team', 'PUT');
      for (const m of seededMembers) if (!uniqueMembers.includes(m)) write('team', 'DELETE');
      for (const r of uniqueRepos) if (!seededRepos.includes(r)) write('team', 'PUT');
      seedTeams.get(org).push({ name, permission: 'admin', members: seededMembers, repos: seededRepos });
    }
    // A team nobody declares any more: pruned.
    seedTeams.get(org).push({ name: 'retired', permission: 'read', members: [], repos: [] });
    t.before++;
    write('team', 'DELETE');
    t.after = 1 + s.teamsPerOrg;
  }

  // ── collaborators (issue 21): per repository, users with a permission; one changed, missing or extra ─
  // Their own random stream (the drift above stays what it was). Only users in no team of the
  // organisation: a member of an admin team reads as owner on its repositories (the permission answered
  // is the user's level), which no collaborator permission changes.
  const crnd = random(22);
  const PERMS = ['read', 'write', 'admin'];
  const collaboratorLines = new Map();
  for (const [o, org] of orgs.entries()) {
    const inTeams = new Set([...seedTeams.get(org).flatMap((t) => t.members), ...teamLines.join('\n').matchAll(/user-\d+/g)].map(String));
    const free = existingUsers.filter((u) => !inTeams.has(u));
    if (free.length < s.collaboratorsPerRepo + 1) throw new Error(`bench: too few users outside the teams of ${org} for collaborators`);
    for (const [k, r] of shapeRepos.entries()) {
      if (r.org !== org) continue;
      const pick = (j) => free[(k * 7 + j * 13 + o) % free.length];
      const want = Array.from({ length: s.collaboratorsPerRepo }, (_, j) => [pick(j), PERMS[(k + j) % PERMS.length]]);
      const seeded = {};
      let onServer = 0;
      // Declared collaborators the server answers above their level at one a team could give (read, write):
      // the plan asks the repository's teams once, then each team of exactly that level for them
      // (src/kinds/collaborator/read.ts). The bench's collaborators are in no team, so none explains it.
      const teamLevels = [];
      const writesBefore = totalWrites();
      for (const [user, perm] of want) {
        declared.collaborators++;
        const d = drift(crnd, [['permission', 2], ['missing', 1]]);
        if (d === 'missing') {
          write('collaborator', 'PUT');
          continue;
        }
        onServer++;
        if (d === 'permission') write('collaborator', 'PUT');
        seeded[user] = d === 'permission' ? PERMS[(PERMS.indexOf(perm) + 1) % PERMS.length] : perm;
        if (PERMS.indexOf(seeded[user]) > PERMS.indexOf(perm) && seeded[user] !== 'admin') teamLevels.push(seeded[user]);
      }
      // A collaborator nobody declares any more: removed (policy.prune: collaborators).
      let extra = 0;
      if (crnd() < DRIFT) {
        seeded[pick(s.collaboratorsPerRepo)] = 'read';
        write('collaborator', 'DELETE');
        extra = 1;
      }
      seedRepos[k].collaborators = seeded;
      collaboratorLines.set(k, ['    collaborators:', ...want.map(([u, p]) => `      ${u}: ${p}`)]);
      // The list holds every collaborator; a permission is read for each declared one the server has.
      r.collaborators = onServer + extra;
      r.collaboratorPermissions = onServer;
      r.collaboratorsDeclared = want.length;
      const repoName = seedRepos[k].name.split('/')[1];
      const teamsOfLevel = (level) => seedTeams.get(org).filter((t) => t.permission === level && t.repos.includes(repoName)).length;
      r.collaboratorTeamReads = teamLevels.length ? 1 + teamLevels.reduce((n, level) => n + teamsOfLevel(level), 0) : 0;
      r.writes += totalWrites() - writesBefore;
    }
  }
  for (const [k, lines] of collaboratorLines) {
    const at = repoLines.indexOf(`  ${seedRepos[k].name}:`);
    repoLines.splice(at + 1, 0, ...lines);
  }

  const labelBlock = labels.map((l) => `      ${yamlString(l.name)}: { color: "${l.color}", description: ${yamlString(l.description)} }`);
  const config = [
    '# Generated by bench/forge.mjs: the benchmark forge of issue 12.',
    'version: 1',
    'policy:',
    '  prune: [labels, branch_protections, hooks, teams, collaborators]',
    // The drift deletes ~10% of the repositories' extra labels: far more than a hand-kept limit.
    '  max_deletes: 1000000',
    'users:',
    ...userLines,
    'hooks:',
    ...hookLines,
    'orgs:',
    ...teamLines,
    'repos:',
    ...orgs.flatMap((org) => [`  "${org}/*":`, '    labels:', ...labelBlock]),
    ...repoLines,
    '',
  ].join('\n');

  const seed = {
    users: seedUsers,
    orgs: orgs.map((name) => ({ name, owners: ['root'], teams: seedTeams.get(name) })),
    hooks: seedHooks,
    repos: seedRepos,
  };

  const before = {
    orgs: orgs.map((name) => ({ name, repos: shapeRepos.filter((r) => r.org === name).length, labels: 0, teams: shapeTeams.get(name).before, teamLists: shapeTeams.get(name).lists, teamCreates: shapeTeams.get(name).creates, teamDeletes: 1 })),
    repos: shapeRepos,
    users: seedUsers.length,
    hooks: { system: seedHooks.length, default: 0 },
    labelDeletes,
    usersCreated,
    hooksCreated,
    adminWrites: Object.entries(writes)
      .filter(([kind]) => kind === 'user' || kind === 'hook')
      .reduce((n, [, byMethod]) => n + Object.values(byMethod).reduce((a, b) => a + b, 0), 0),
  };
  // After apply the server is the config: every repository has exactly the declared labels and rules.
  const after = {
    ...before,
    // Every declared team exists, and each has its member and repository lists read (Owners: members only).
    orgs: before.orgs.map((o) => ({ ...o, teams: 1 + s.teamsPerOrg, teamLists: 1 + 2 * s.teamsPerOrg, teamCreates: 0, teamDeletes: 0 })),
    // Every declared collaborator exists (and no other): the list holds them, each has its permission read.
    repos: shapeRepos.map((r) => ({ ...r, labels: labels.length, labelsCreated: 0, writes: 0, protections: RULES_PER_REPO, collaborators: r.collaboratorsDeclared, collaboratorPermissions: r.collaboratorsDeclared, collaboratorTeamReads: 0 })),
    users: seedUsers.length + usersCreated,
    hooks: { system: s.hooks, default: 0 },
    labelDeletes: 0,
    usersCreated: 0,
    hooksCreated: 0,
    adminWrites: 0,
  };
  return { size, sizes: s, seed, config, before, after, writes, declared };
}
