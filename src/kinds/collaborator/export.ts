import type { CurrentObject, KindExport } from '../../model/index.js';

/**
 * A collaborator as config: its permission. `owner` (a site administrator, an organisation owner) is
 * no permission a collaborator can be given: it is exported as admin, which the plan then finds met.
 */
export const exporting = {
  toConfig(current: CurrentObject) {
    const p = current.fields.permission;
    return { permission: p === 'owner' ? 'admin' : p };
  },

  /** `collaborators:` maps each user to its permission, not to an object. */
  exportInto(entry: Record<string, unknown>, objects: Record<string, Record<string, unknown>>) {
    const exported = Object.entries(objects);
    if (exported.length) entry.collaborators = Object.fromEntries(exported.map(([name, o]) => [name, o.permission]));
  },
} satisfies KindExport;
