import type { Export } from '../../model/index.js';
import type { UserTypes } from './types.js';

export const exporting = {
  toConfig(current) {
    const f = current.fields;
    const out: Record<string, unknown> = { email: f.email, full_name: f.full_name };
    if (f.source_id) Object.assign(out, { source_id: f.source_id, login_name: f.login_name });
    Object.assign(out, { visibility: f.visibility, admin: f.admin, restricted: f.restricted, active: f.active, prohibit_login: f.prohibit_login });
    for (const k of ['website', 'location', 'description', 'pronouns']) if (f[k]) out[k] = f[k];
    // Only when read (export reads them), and only when there are some: an empty list would manage them.
    if (Array.isArray(f.badges) && f.badges.length) out.badges = f.badges;
    const keys = current.meta?.sshKeys;
    if (keys?.length) out.ssh_keys = keys.map((k) => ({ title: k.title, key: k.key }));
    return out;
  },
} satisfies Export<UserTypes>;
