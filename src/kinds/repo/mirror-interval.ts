// The shortest interval a pull mirror may have: the server's `[mirror] MIN_INTERVAL` (app.ini; 10m by
// default, raised to 1m when set lower: modules/setting/mirror.go l.23 and l.46–49, the same in every tag
// read). The API does not answer it, so the plan takes it from policy.mirror_min_interval (default 10m).
//
// Both ways the API sets a pull mirror's interval parse it with time.ParseDuration, take 0 as "no periodic
// sync", and refuse any other interval below MIN_INTERVAL:
// - POST /repos/migrate (MigrateRepository): the migration fails (500) and the new repository is deleted
//   again (src/sandbox/NOTES.md "Pull mirrors");
// - PATCH /repos/{o}/{r} mirror_interval (updateMirror): 422 "invalid mirror interval: … is below minimum
//   interval: …".
import { parseGoDuration } from '../../go-duration.js';
import { describeServer, serverHas, type Availability, type PolicyEntry, type ServerInfo } from '../../model/index.js';

declare module '../../model/plan.js' {
  interface PlanPolicy {
    /** The server's [mirror] MIN_INTERVAL, as a Go duration: a pull mirror's interval below it (but 0) is refused (mirror-interval.ts). */
    mirror_min_interval?: string;
  }
}

export const DEFAULT_MIN_INTERVAL = '10m';
/** loadMirrorFrom raises a MIN_INTERVAL below a minute to a minute. */
const ONE_MINUTE = 60_000_000_000n;

export const mirrorPolicy: Record<string, PolicyEntry> = {
  mirror_min_interval: { default: DEFAULT_MIN_INTERVAL, is: (v) => typeof v === 'string' && parseGoDuration(v) !== undefined, expected: 'a duration like "10m"' },
};

/**
 * Where each release compares the interval with MIN_INTERVAL: the migration (services/repository/migrate.go;
 * modules/repository/repo.go in Gitea 1.21), then the edit (routers/api/v1/repo/repo.go updateMirror).
 */
const CHECKED_AT: readonly (readonly [Availability, string])[] = [
  [{ gitea: { until: '1.21' } }, 'v1.21.11 modules/repository/repo.go:208, routers/api/v1/repo/repo.go:1061'],
  [{ gitea: { since: '1.22', until: '1.22' } }, 'v1.22.6 services/repository/migrate.go:209, routers/api/v1/repo/repo.go:1095'],
  [{ gitea: { since: '1.23', until: '1.23' } }, 'v1.23.8 services/repository/migrate.go:213, routers/api/v1/repo/repo.go:1102'],
  [{ gitea: { since: '1.24', until: '1.24' } }, 'v1.24.7 services/repository/migrate.go:208, routers/api/v1/repo/repo.go:1102'],
  [{ gitea: { since: '1.25', until: '1.25' } }, 'v1.25.4 services/repository/migrate.go:204, routers/api/v1/repo/repo.go:1094'],
  [{ gitea: { since: '1.26' } }, 'main 423cdd4d94 services/repository/migrate.go:203, routers/api/v1/repo/repo.go:1044'],
  [{ forgejo: { until: '7' } }, 'v7.0.16 services/repository/migrate.go:211, routers/api/v1/repo/repo.go:1083'],
  [{ forgejo: { since: '8', until: '8' } }, 'v8.0.3 services/repository/migrate.go:211, routers/api/v1/repo/repo.go:1100'],
  [{ forgejo: { since: '9', until: '10' } }, 'v10.0.3 services/repository/migrate.go:212, routers/api/v1/repo/repo.go:1118'],
  [{ forgejo: { since: '11', until: '12' } }, 'v11.0.15 services/repository/migrate.go:210, routers/api/v1/repo/repo.go:1115'],
  [{ forgejo: { since: '13', until: '14' } }, 'v14.0.5 services/repository/migrate.go:210, routers/api/v1/repo/repo.go:1158'],
  [{ forgejo: { since: '15' } }, 'v15.0.3 services/repository/migrate.go:205, routers/api/v1/repo/repo.go:1182'],
];

/**
 * The minimum a mirror interval is below (as the policy writes it), or undefined when the server takes it (0, or at
 * least MIN_INTERVAL). Pull and push mirrors are judged alike (push: CreatePushMirror, v1.25.4
 * routers/api/v1/repo/mirror.go:340, 400).
 */
export function belowMinimum(interval: unknown, minimum: string | undefined): string | undefined {
  const ns = typeof interval === 'string' ? parseGoDuration(interval) : undefined;
  const declaredMin = parseGoDuration(minimum ?? DEFAULT_MIN_INTERVAL) ?? 0n;
  const [min, shown] = declaredMin < ONE_MINUTE ? [ONE_MINUTE, '1m'] : [declaredMin, minimum ?? DEFAULT_MIN_INTERVAL];
  return ns === undefined || ns === 0n || ns >= min ? undefined : shown;
}

/** Why the server refuses a pull mirror's interval, or undefined when it takes it (0, or at least the minimum). */
export function mirrorIntervalProblem(interval: unknown, minimum: string | undefined, server: ServerInfo | undefined): string | undefined {
  const shown = belowMinimum(interval, minimum);
  if (shown === undefined) return undefined;
  const where = server ? `${describeServer(server)} (${CHECKED_AT.find(([a]) => serverHas(server, a))?.[1] ?? 'services/repository/migrate.go, routers/api/v1/repo/repo.go'})` : 'the server (services/repository/migrate.go, routers/api/v1/repo/repo.go)';
  return `interval: ${JSON.stringify(interval)} is below the minimum mirror interval ${shown} (policy.mirror_min_interval, the server's [mirror] MIN_INTERVAL: 10m unless app.ini sets it), which ${where} refuses (the migration fails; an edit answers 422): use at least ${shown}, or 0 to turn the periodic sync off; if the server's MIN_INTERVAL is lower, set policy.mirror_min_interval to it`;
}
