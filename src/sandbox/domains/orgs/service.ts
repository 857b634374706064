/** Creating organisations (`services/org`), for the admin route and the seed loader. */
import { failure, type Failure } from '../../core/failure.js';
import { nowIso, type OrgRecord, type Owner, type SandboxState, type Visibility } from '../../core/state.js';
import { deleteUserRedirect } from '../../core/redirects.js';
import { createOwnersTeam } from '../teams/service.js';
import { checkUsableUsername } from '../users/service.js';

export interface CreateOrgInput {
  username: string;
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility | '';
  repoAdminChangeTeamAccess?: boolean;
}

/** `organization.CreateOrganization`: the creator becomes the only member of the Owners team. */
export function createOrg(state: SandboxState, creator: Owner, input: CreateOrgInput): OrgRecord | Failure {
  // `CanCreateOrganization`: site admins, or users allowed to (ErrUserNotAllowedCreateOrg → 500).
  if (creator.kind !== 'user' || (!creator.user.isAdmin && !creator.user.allowCreateOrganization)) return failure(500, 'user is not allowed to create organizations');
  const unusable = checkUsableUsername(input.username);
  if (unusable) return unusable;
  if (state.isNameTaken(input.username)) return failure(422, `user already exists [name: ${input.username}]`);
  const now = nowIso();
  const org: OrgRecord = {
    id: state.nextId('user'),
    name: input.username,
    fullName: input.fullName ?? '',
    email: input.email ?? '',
    description: input.description ?? '',
    website: input.website ?? '',
    location: input.location ?? '',
    visibility: input.visibility || 'public',
    repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
    memberIds: [creator.id],
    createdAt: now,
    updatedAt: now,
  };
  state.data.orgs.push(org);
  createOwnersTeam(state, org, creator.id);
  deleteUserRedirect(state, org.name);
  return org;
}
