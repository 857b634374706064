import type { Shape } from '../../gitea/answer.js';
import { apiPath } from '../../gitea/path.js';
import type { CurrentObject, DesiredObject, Reading, ReadRequest } from '../../model/index.js';
import { fields } from './fields.js';
import { firstTeamOf, repoTeams, type RepoTeam } from './teams.js';
import type { CollaboratorMeta, CollaboratorTypes, ServerCollaborator } from './types.js';

export { fields } from './fields.js';

/** `GET /repos/{o}/{r}/collaborators`, paged (routers/api/v1/repo/collaborators.go ListCollaborators, every release). */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'collaborators');
}

/** A collaborator as listed: a user (convert.ToUser); the list carries no permission in any release. */
export const shape: Shape = { id: 'id', login: 'string' };

/** `GET …/collaborators/{user}/permission` (GetRepoPermissions): RepoCollaboratorPermission. */
const PERMISSION: Shape = { permission: 'string' };

const lc = (s: string) => s.toLowerCase();

/** A listed collaborator; its permission is read apart (see read). */
function fromServer(r: ServerCollaborator): CurrentObject<CollaboratorMeta> {
  // is_admin is answered to a site administrator's token only (convert.ToUser): false otherwise, which costs reads, never a wrong note.
  return { key: String(r.login), id: Number(r.id), fields: {}, ...(r.is_admin === true ? { meta: { siteAdmin: true } } : {}) };
}

/** The declared collaborators whose permission is compared, by lower-cased name. */
function declaredByName(desired: DesiredObject[] | undefined): Map<string, DesiredObject> {
  return new Map((desired ?? []).filter((d) => 'permission' in d.fields).map((d) => [lc(d.key), d]));
}

/** The levels the permission route answers, lowest first. */
const RANK: Record<string, number> = { none: 0, read: 1, write: 2, admin: 3, owner: 4 };

/** The level a team's members read through it (GetUserRepoPermission): owner for admin access (HasAdminAccess), else its stored mode. */
const levelThrough = (team: RepoTeam): string => (team.permission === 'admin' || team.permission === 'owner' ? 'owner' : team.permission);

/**
 * Whether a team may explain the level a collaborator reads above its declared one: read or write (a team's
 * stored mode), owner (a team with admin access, the Owners team) unless the user is a site administrator
 * (the server answers owner for them first). Never admin: no team makes its members read admin.
 */
function teamMayExplain(o: CurrentObject<CollaboratorMeta>, want: unknown): boolean {
  const have = String(o.fields.permission);
  if (typeof want !== 'string' || !((RANK[have] ?? -Infinity) > (RANK[want] ?? Infinity)) || have === 'admin') return false;
  return have !== 'owner' || o.meta?.siteAdmin !== true;
}

/**
 * The collaborators that read higher than declared at a level a team can give. The answer is the highest of
 * the collaboration's mode and the stored mode of the user's teams on the repository (owner through a team
 * with admin access; models/perm/access), and no route answers the collaboration's own. Where a team of the
 * user gives the level read, the team explains it: the collaboration cannot be compared (a PUT would change
 * nothing the route answers: the same change on every plan), and the plan says so (plan.ts notices). One list
 * of the repository's teams, only where some collaborator reads so; then one membership check per team at
 * that level, in the list's order (Owners first), until one has the user. None for the collaborators in sync
 * or below their level, none on a user's repository (no teams there), none for site administrators.
 */
async function explainByTeams(req: ReadRequest<CollaboratorTypes>, objects: CurrentObject<CollaboratorMeta>[], declared: Map<string, DesiredObject>): Promise<void> {
  if (!req.scope.repo?.ownerIsOrg) return;
  const higher = objects.filter((o) => teamMayExplain(o, declared.get(lc(o.key))?.fields.permission));
  if (!higher.length) return;
  const { scope, ctx } = req;
  const teams = await repoTeams(ctx, scope);
  await Promise.all(
    higher.map(async (o) => {
      const level = String(o.fields.permission);
      const team = await firstTeamOf(ctx, teams.filter((t) => levelThrough(t) === level), o.key);
      if (team) o.meta = { ...o.meta, through: { team: team.name, permission: level } };
    }),
  );
}

export const reading = {
  fields,
  shape,

  /**
   * One paged list of the repository's collaborators (users only: the repository's owner, its
   * organisation's owners and team members are not collaborators unless made so), then, since no
   * release's list carries the permission, one GET of the permission per collaborator that the config
   * declares and the server has (all of them for export): none for those to add, none for those only
   * pruned. A collaborator is keyed by its name as declared (names are case-insensitive), else as listed.
   */
  async read(req) {
    const { scope, ctx, desired } = req;
    const listed = await ctx.client.list<ServerCollaborator>(listPath(scope.segments), { object: `collaborators of ${scope.name}`, shape });
    const declared = declaredByName(desired);
    const everything = ctx.options.readEverything === true;
    // The API lets the owner be made a collaborator of its own repository (a row that gives nothing); an
    // export leaves it out, since a config that names the owner is refused (plan.ts check).
    const kept = everything ? listed.filter((u) => lc(String(u.login)) !== lc(scope.owner)) : listed;
    const objects = await Promise.all(
      kept.map(async (u) => {
        const o = fromServer(u);
        const name = declared.get(lc(o.key))?.key;
        if (name !== undefined) o.key = name;
        if (name === undefined && !everything) return o;
        const answer = await ctx.client.get<{ permission: string }>(apiPath(...scope.segments, 'collaborators', String(u.login), 'permission'), {
          object: `permission of collaborator ${String(u.login)} on ${scope.name}`,
          shape: PERMISSION,
        });
        o.fields.permission = String(answer.permission);
        return o;
      }),
    );
    await explainByTeams(req, objects, declared);
    return objects;
  },

  fromServer,

  /**
   * The permission answered is the user's level on the repository, not the collaboration's alone: a site
   * administrator or an owner of the organisation (or a member of an admin team) reads as `owner`,
   * whatever the collaboration says. Such a user has every right: nothing is to change. A level a team of
   * the user gives (see explainByTeams) is no difference either: the collaboration's own cannot be read,
   * and notices names the team.
   */
  compare(field, { current }) {
    return field === 'permission' ? (want: unknown, have: unknown) => want === have || have === 'owner' || (current?.meta?.through !== undefined && current.meta.through.permission === have) : undefined;
  },
} satisfies Reading<CollaboratorTypes>;
