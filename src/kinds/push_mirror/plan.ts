import { normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { hasUserinfo } from '../url-userinfo.js';
import { belowMinimum } from '../repo/mirror-interval.js';
import { describeServer, serverHas, type Availability, type DesiredObject, type Planning, type Problem, type Safety } from '../../model/index.js';
import { fields } from './fields.js';
import type { PushMirrorTypes } from './types.js';
import type { PushMirrorConfig } from '../../config/types.js';

/**
 * Releases whose `POST /repos/{o}/{r}/push_mirrors` has `mustNotBeArchived` (423): Gitea from 1.22 (v1.22.6
 * routers/api/v1/api.go l.1269; v1.21.11 l.1175 has none) and every Forgejo (v7.0.16 l.1129, v15.0.3 l.1305).
 */
const REFUSED_WHEN_ARCHIVED: Availability = { gitea: { since: '1.22' }, forgejo: {} };

/**
 * Problems of one declared mirror that need no server: credentials in the address, an interval under the server's
 * [mirror] MIN_INTERVAL (policy.mirror_min_interval, 10m by default), which CreatePushMirror answers 400 (Gitea
 * v1.21.11 routers/api/v1/repo/mirror.go:336, v1.25.4 l.340, main 423cdd4d94 l.340; Forgejo v7.0.16 l.343, v15.0.3 l.349).
 */
function declaredProblems(m: PushMirrorConfig, path: (string | number)[], minimum: string | undefined): Problem[] {
  const problems: Problem[] = [];
  if (hasUserinfo(m.remote_address))
    problems.push({ path: [...path, 'remote_address'], message: 'remote_address holds credentials (user:password@), which would be printed and saved with every plan: remove them and declare remote_username and remote_password: "${NAME}" instead' });
  const shown = belowMinimum(m.interval, minimum);
  if (shown !== undefined)
    problems.push({ path: [...path, 'interval'], message: `interval ${m.interval} is below the minimum mirror interval ${shown} (policy.mirror_min_interval, the server's [mirror] MIN_INTERVAL: 10m unless app.ini sets it), which the server refuses (400): use at least ${shown}, or 0 to push on commits only; if the server's MIN_INTERVAL is lower, set policy.mirror_min_interval to it` });
  return problems;
}

export const planning = {
  async desired({ entry, scope, ctx }) {
    const declared = entry?.push_mirrors;
    if (!declared) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    const seen = new Map<string, number>();
    declared.forEach((m, i) => {
      const path = ['repos', scope.name, 'push_mirrors', i];
      const own = declaredProblems(m, path, ctx.policy.mirror_min_interval);
      problems.push(...own);
      if (own.some((p) => p.path?.at(-1) === 'remote_address')) return;
      const key = m.remote_address.trim();
      const first = seen.get(key);
      if (first !== undefined) {
        problems.push({ path, message: `the push mirror ${key} is declared twice (here and at push_mirrors[${first}]): one remote is one mirror` });
        return;
      }
      seen.set(key, i);
      const { remote_address: _address, remote_password, ...rest } = m;
      const f = normalizeFields(fields, rest, true);
      if (remote_password !== undefined) {
        const { secret, problems: p } = secretFromEnvironment(remote_password, [...path, 'remote_password'], 'remote_password', ctx);
        problems.push(...p);
        if (secret) f.remote_password = secret;
      }
      objects.push({ key, fields: f, path });
    });
    return { objects, problems };
  },

  /** A new push mirror of an archived repository that this configuration leaves archived: the server refuses it (423). */
  check({ desired, current, scope, ctx, config }) {
    if (current || !scope.repo?.archived || !ctx.server || !serverHas(ctx.server, REFUSED_WHEN_ARCHIVED)) return [];
    if (config.repos?.[scope.name]?.settings?.archived === false) return [];
    return [{ path: desired.path, message: `${scope.name} is archived: ${describeServer(ctx.server)} refuses to add a push mirror to it (423 repo is archived); un-archive it (settings: { archived: false }) or remove the push mirror` }];
  },
} satisfies Planning<PushMirrorTypes>;

export const safety = {
  async annotate({ change, intent }) {
    if (change.action !== 'replace') return undefined;
    const sendsCredentials = 'remote_username' in intent.fields || 'remote_password' in intent.fields;
    return {
      notes: [
        'the server cannot edit a push mirror: it is deleted and created again (under a new remote name)',
        ...(sendsCredentials ? [] : ['the new mirror has no credentials unless remote_username and remote_password are declared: the server never answers those of the old one']),
      ],
    };
  },
} satisfies Safety<PushMirrorTypes>;
