import type { Shape } from '../../gitea/answer.js';
import { apiPath } from '../../gitea/path.js';
import type { CurrentObject, DesiredObject, Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { CollaboratorTypes, ServerCollaborator } from './types.js';

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
function fromServer(r: ServerCollaborator): CurrentObject {
  return { key: String(r.login), id: Number(r.id), fields: {} };
}

/** The declared collaborators whose permission is compared, by lower-cased name → the name as declared. */
function declaredNames(desired: DesiredObject[] | undefined): Map<string, string> {
  return new Map((desired ?? []).filter((d) => 'permission' in d.fields).map((d) => [lc(d.key), d.key]));
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
  async read({ scope, ctx, desired }) {
    const listed = await ctx.client.list<ServerCollaborator>(listPath(scope.segments), { object: `collaborators of ${scope.name}`, shape });
    const declared = declaredNames(desired);
    const everything = ctx.options.readEverything === true;
    // The API lets the owner be made a collaborator of its own repository (a row that gives nothing); an
    // export leaves it out, since a config that names the owner is refused (plan.ts check).
    const kept = everything ? listed.filter((u) => lc(String(u.login)) !== lc(scope.owner)) : listed;
    return Promise.all(
      kept.map(async (u) => {
        const o = fromServer(u);
        const name = declared.get(lc(o.key));
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
  },

  fromServer,

  /**
   * The permission answered is the user's level on the repository, not the collaboration's alone: a site
   * administrator or an owner of the organisation (or a member of an admin team) reads as `owner`,
   * whatever the collaboration says. Such a user has every right: nothing is to change.
   */
  compare(field) {
    return field === 'permission' ? (want: unknown, have: unknown) => want === have || have === 'owner' : undefined;
  },
} satisfies Reading<CollaboratorTypes>;
