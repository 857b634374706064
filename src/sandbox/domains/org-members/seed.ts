/** Seed key `orgs[].public_members`: names of members (through `owners`, `members` or `teams`) whose membership is public. */
import type { NestedSeed } from '../../core/domain.js';
import { SeedError, strings } from '../../core/seed-shape.js';
import type { OrgRecord } from '../../core/state.js';
import { isOrgMember } from '../../core/permissions.js';
import { setPublic } from './records.js';

export interface SeedPublicMembers {
  public_members?: string[];
}

export const orgPublicMembersSeed: NestedSeed<OrgRecord> = {
  keys: ['public_members'],
  load: (cx, org, o, p) => {
    strings(o.public_members, `${p}.public_members`).forEach((name, j) => {
      const user = cx.state.userByName(name);
      if (!user || !isOrgMember(cx.state, org, user.id)) throw new SeedError(`${p}.public_members[${j}]: ${name} is not a member of ${org.name} (list it in owners, members or a team)`);
      setPublic(cx.state, org, user.id, true);
    });
  },
};
