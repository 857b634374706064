import { normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { hasUserinfo } from '../hook/plan.js';
import { parseGoDuration } from '../../go-duration.js';
import type { DesiredObject, Planning, Problem, Safety } from '../../model/index.js';
import { fields } from './fields.js';
import type { PushMirrorTypes } from './types.js';
import type { PushMirrorConfig } from '../../config/types.js';

/** Gitea raises a MIN_INTERVAL below a minute to a minute (modules/setting/mirror.go loadMirrorFrom): no server takes less. */
const ONE_MINUTE = 60_000_000_000n;

/** Problems of one declared mirror that need no server: credentials in the address, an interval no server takes. */
function declaredProblems(m: PushMirrorConfig, path: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  if (hasUserinfo(m.remote_address))
    problems.push({ path: [...path, 'remote_address'], message: 'remote_address holds credentials (user:password@), which would be printed and saved with every plan: remove them and declare remote_username and remote_password: "${NAME}" instead' });
  const ns = typeof m.interval === 'string' ? parseGoDuration(m.interval) : undefined;
  if (ns !== undefined && ns !== 0n && ns < ONE_MINUTE)
    problems.push({ path: [...path, 'interval'], message: `interval ${m.interval} is below a minute: no server takes it (MIN_INTERVAL is at least 1m, 10m by default); use 0 to push on commits only` });
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
      const own = declaredProblems(m, path);
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
