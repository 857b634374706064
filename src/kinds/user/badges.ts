// Which badge slugs the plan may write. No API lists the server's badges (they are defined in the web
// admin; the API only reads, adds and removes a user's: routers/api/v1/api.go, Gitea v1.22.6 l.1608–1610,
// v1.25.4 l.1735–1737), and
// a slug the server does not have fails the write after the user is written: the admin route hands the slugs
// to user_model.AddUserBadges, which looks each one up in one transaction and returns an error for a missing
// one, which the route answers 500 (routers/api/v1/admin/user_badge.go AddUserBadges: v1.22.6
// and v1.23.8 l.70–74 ctx.Error(500), v1.24.7 and v1.25.4 l.70–74 ctx.APIErrorInternal; models/user/badge.go
// AddUserBadges: v1.22.6, v1.23.8, v1.24.7, v1.25.4 l.79–97 "badge with slug %s doesn't exist"; main (1.26)
// l.144–152 "badge does not exist [slug: %s]"). Slugs are compared by the database (`slug=?`): exactly, here.
// So a slug counts as known when a user the plan reads carries it, or when policy.badges lists it.
import { serverHas, type Problem, type ServerInfo } from '../../model/index.js';
import { asSet } from '../fields.js';
import { BADGES } from './extras.js';
import type { DeclaredUser, UserFacts } from './types.js';

/** The slugs the plan knows the server has: those of every user read with its badges, and policy.badges. */
function knownBadges(facts: UserFacts, declared: readonly string[]): ReadonlySet<string> {
  return (facts.badges ??= new Set([...facts.users.flatMap((u) => asSet(u.fields.badges)), ...declared]));
}

/**
 * The slugs a user's config gives it that the plan cannot know the server has, each refused at its place
 * (`written`: the user's badges as the config lists them, for their indexes).
 */
export function unknownBadges(desired: DeclaredUser, written: readonly string[] | undefined, facts: UserFacts | undefined, declared: readonly string[], server: ServerInfo | undefined): Problem[] {
  if (!facts || !written || !('badges' in desired.fields) || !serverHas(server, BADGES)) return [];
  const known = knownBadges(facts, declared);
  return written.flatMap((slug, i) =>
    known.has(slug)
      ? []
      : [
          {
            path: [...desired.path, 'badges', i],
            message: `badge "${slug}" is not known: the server has no API that lists its badges (they are made in its web admin), no user this plan reads carries it${declared.length ? `, and policy.badges does not list it (${declared.join(', ')})` : ''}, and a slug the server does not have fails the write after the user is written (500). If the server has this badge, declare it: policy: { badges: [${slug}] }`,
          },
        ],
  );
}
