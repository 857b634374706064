import { apiPath } from '../../gitea/path.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type Planning, type PrepareRequest, type Problem, type Safety, type ServerInfo, type Writing } from '../../model/index.js';
import { teamKind } from '../team/index.js';
import { nameSet } from '../team/fields.js';
import { tokenUser } from './read.js';
import type { MembershipFacts, PublicMembershipTypes } from './types.js';

/**
 * Releases where a site administrator and the organisation's owners may change anyone's public membership:
 * checkCanChangeOrgUserStatus (Gitea v1.24.7 routers/api/v1/org/member.go l.214–226, #28294). Before (Gitea
 * v1.23.8 l.239–242) and in every Forgejo (v15.0.3 l.239–242) only the member themself may: 403 "Cannot
 * publicize another member" / "Cannot conceal another member".
 */
const OTHERS_BY_ADMINS: Availability = { gitea: { since: '1.24' } };

const lc = (s: string) => s.toLowerCase();

/** Names the change makes public, and those it makes private. */
export function delta(desired: DesiredObject | undefined, current: CurrentObject | undefined): { added: string[]; removed: string[] } {
  const want = new Set(nameSet(desired?.fields.members));
  const have = new Set(nameSet(current?.fields.members));
  return { added: [...want].filter((n) => !have.has(n)), removed: [...have].filter((n) => !want.has(n)) };
}

/**
 * The organisation's members now: one paged list. An organisation this plan creates has one member, the
 * owner the configuration creates it for (POST /admin/users/{owner}/orgs); a saved plan's is not known
 * again at apply (undefined: judged when the plan was made).
 */
async function membersNow(req: PrepareRequest<PublicMembershipTypes>): Promise<Set<string> | undefined> {
  const { scope, ctx } = req;
  if (scope.pendingCreate) {
    if (req.phase !== 'plan') return undefined;
    const owner = req.config.orgs?.[scope.name]?.owner;
    return new Set(typeof owner === 'string' ? [lc(owner)] : []);
  }
  const list = await ctx.client.list<{ login: string }>(apiPath('orgs', scope.name, 'members'), { object: `members of ${scope.name}`, shape: { login: 'string' } });
  return new Set(list.map((u) => lc(u.login)));
}

/**
 * The users this plan's teams add to the organisation, each with the team changes that add them (its
 * create or rename, or its update): a user made public waits for them. From the team kind's objects as
 * the plan leaves them, against the teams as read (member lists are read for the teams the config declares them for).
 */
async function joiningThroughTeams(req: PrepareRequest<PublicMembershipTypes>): Promise<Map<string, string[]>> {
  const { scope, ctx } = req;
  const out = new Map<string, string[]>();
  const [projected, current] = await Promise.all([ctx.projected(teamKind, scope), scope.pendingCreate ? Promise.resolve([]) : ctx.currentOf(teamKind, scope)]);
  for (const team of projected) {
    if (!Array.isArray(team.fields.members)) continue;
    const before = current.find((c) => c.key === team.key);
    const had = new Set(nameSet(before?.fields.members));
    const by = team.madeBy ?? team.changedBy;
    if (!by) continue;
    for (const m of nameSet(team.fields.members)) if (team.madeBy || !had.has(m)) out.set(m, [...(out.get(m) ?? []), by]);
  }
  return out;
}

export const preparing = {
  /** Who the token is, and the members the organisation has and gains: at plan time for check and dependsOn, at apply for the guard. */
  async prepare(req) {
    const { self, admin } = await tokenUser(req.ctx);
    const { added } = delta(req.desired[0], req.current[0]);
    const [members, joining] = added.length ? await Promise.all([membersNow(req), joiningThroughTeams(req)]) : [new Set<string>(), new Map<string, string[]>()];
    const facts: MembershipFacts = { self, admin, members, joining };
    req.run.facts.set(req.scope.name, facts);
    return facts;
  },
} satisfies Pick<Writing<PublicMembershipTypes>, 'prepare'>;

/** What the server would refuse or ignore in a change of these names: each problem with the name it is about. */
function refusals(org: string, added: string[], removed: string[], facts: MembershipFacts, server: ServerInfo | undefined): { name: string; message: string }[] {
  const out: { name: string; message: string }[] = [];
  for (const name of added)
    if (facts.members && !facts.members.has(name) && !facts.joining.has(name))
      out.push({ name, message: `user "${name}" is not a member of ${org} (the server answers 204 and changes nothing): add it to one of ${org}'s teams (teams: NAME: members)` });
  if (server && !serverHas(server, OTHERS_BY_ADMINS))
    for (const name of [...added, ...removed])
      if (name !== facts.self)
        out.push({
          name,
          message: `${describeServer(server)} lets only "${name}" change their own public membership (403 "Cannot ${added.includes(name) ? 'publicize' : 'conceal'} another member"), and the token is ${facts.self || 'unknown'}'s (Gitea 1.24 and newer let site administrators and organisation owners change anyone's)`,
        });
  return out;
}

export const planning = {
  async desired({ entry, scope, run }) {
    const declared = entry?.public_members;
    if (!declared) return undefined;
    const object: DesiredObject = { key: scope.name, fields: { members: nameSet(declared) }, path: ['orgs', scope.name, 'public_members'] };
    run.declared.set(object, declared);
    return { objects: [object], problems: [] };
  },

  check({ desired, current, prepared, run, ctx }) {
    const { added, removed } = delta(desired, current);
    const written = (run.declared.get(desired) ?? []).map(lc);
    return refusals(desired.key, added, removed, prepared, ctx.server).map(({ name, message }): Problem => {
      const i = written.indexOf(name);
      return { path: i >= 0 ? [...desired.path, i] : desired.path, message };
    });
  },
} satisfies Planning<PublicMembershipTypes>;

export const safety = {
  /** At apply, the same refusals with the facts as they are now (fail closed when they were not learnt). */
  guard({ change, current, scope, run, ctx }) {
    const facts = run.facts.get(scope.name);
    if (!facts) return 'the organisation\'s members and the token\'s user were not looked up, so forgeform cannot tell that the server would take the change';
    const after = change.fields.find((f) => f.path === 'members' && !f.context)?.after;
    const { added, removed } = delta({ key: change.key, fields: { members: after }, path: [] }, current);
    const problems = refusals(scope.name, added, removed, facts, ctx.server);
    return problems.length ? problems.map((p) => p.message).join('; ') : undefined;
  },
} satisfies Safety<PublicMembershipTypes>;
