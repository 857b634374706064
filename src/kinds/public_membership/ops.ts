import { apiPath } from '../../gitea/path.js';
import type { Op, Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { delta } from './plan.js';
import type { PublicMembershipTypes } from './types.js';

/**
 * One PUT per member made public and one DELETE per member made private (PublicizeMember, ConcealMember:
 * 204), those made public first; none for the members already right.
 */
export const writing = {
  ops({ scope, action, desired, current }) {
    if (action !== 'create' && action !== 'update') return notAnActionOf('public_membership', action);
    const { added, removed } = delta(desired, current);
    const path = (name: string) => apiPath('orgs', scope.name, 'public_members', name);
    return [...added.map((n): Op => ({ method: 'PUT', path: path(n) })), ...removed.map((n): Op => ({ method: 'DELETE', path: path(n) }))];
  },

  /** A member the plan's teams bring into the organisation is made public after the team change that adds them. */
  dependsOn({ action, desired, current, prepared }) {
    if (action !== 'create' && action !== 'update') return [];
    return [...new Set(delta(desired, current).added.flatMap((n) => prepared.joining.get(n) ?? []))];
  },
} satisfies Writing<PublicMembershipTypes>;
