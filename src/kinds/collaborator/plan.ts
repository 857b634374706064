import type { DesiredObject, Planning, Problem, Writing } from '../../model/index.js';
import { lookUpUsers } from '../user/accounts.js';
import type { CollaboratorFacts, CollaboratorTypes } from './types.js';

const lc = (s: string) => s.toLowerCase();

export const planning = {
  /** One object per declared user (`collaborators: { alice: write }`), keyed by the name as written. */
  async desired({ entry, scope }) {
    const declared = entry?.collaborators;
    if (!declared) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    const seen = new Map<string, string>();
    for (const [name, permission] of Object.entries(declared)) {
      const path = ['repos', scope.name, 'collaborators', name];
      const other = seen.get(lc(name));
      if (other !== undefined) {
        problems.push({ path, message: `collaborator "${name}" is listed twice (as "${other}" too): user names are case-insensitive` });
        continue;
      }
      seen.set(lc(name), name);
      objects.push({ key: name, fields: { permission }, path });
    }
    return { objects, problems };
  },

  /**
   * A collaborator that reads at a level one of its teams gives, higher than declared (read.ts
   * explainByTeams): no change is planned for it, since the collaboration's own level cannot be read and a
   * PUT would change nothing the server answers; the plan says so, naming the team, on every plan while
   * it holds (docs/kinds/collaborators.md says how to manage it: the team, or the declared level).
   */
  notices({ desired, current, scope }) {
    const declared = new Map(desired.map((d) => [lc(d.key), d]));
    return current.flatMap((c) => {
      const through = c.meta?.through;
      const d = declared.get(lc(c.key));
      if (!through || !d) return [];
      return [`collaborator "${d.key}" in ${scope.name}: ${String(d.fields.permission)} declared; ${through.permission} through team "${through.team}" (the collaboration's own level cannot be read)`];
    });
  },

  /**
   * What the server would take and never converge on, or refuse: the repository's owner as its
   * collaborator (the API adds it without a check in any release, and its permission reads back as
   * owner), and a user that does not exist (422) or was renamed.
   */
  check({ desired: d, current, scope, prepared }) {
    const problems: Problem[] = [];
    if (lc(d.key) === lc(scope.owner))
      problems.push({
        path: d.path,
        message: scope.repo?.ownerIsOrg
          ? `"${d.key}" is the organisation that owns ${scope.name}, not a user: give its members access with a team`
          : `"${d.key}" owns ${scope.name}: an owner has every permission and is never its own repository's collaborator (remove it)`,
      });
    if (current) return problems;
    const state = prepared?.users.get(lc(d.key));
    if (state === 'missing') problems.push({ path: d.path, message: `user "${d.key}" does not exist on the server (Gitea would refuse to add it: 422)` });
    if (state === 'renamed') problems.push({ path: d.path, message: `user "${d.key}" was renamed on the server: write its new name` });
    return problems;
  },
} satisfies Planning<CollaboratorTypes>;

export const preparing = {
  /** Whether the users to add exist (the plan's own creates count): from the users the plan reads anyway, else one cached GET each. */
  async prepare(req) {
    // At apply the server's own 422 names a user gone since the plan: no lookup more.
    if (req.phase === 'apply') return { users: new Map() };
    const have = new Set(req.current.map((c) => lc(c.key)));
    const owner = lc(req.scope.owner);
    const names = new Set(req.desired.map((d) => d.key).filter((n) => !have.has(lc(n)) && lc(n) !== owner));
    const facts: CollaboratorFacts = { users: await lookUpUsers(req, names) };
    return facts;
  },
} satisfies Pick<Writing<CollaboratorTypes>, 'prepare'>;
