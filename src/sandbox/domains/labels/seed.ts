/** Seed keys `orgs[].labels` and `repos[].labels`, created as `POST …/labels` creates them (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { bool, list, obj, SeedError, str } from '../../core/seed-shape.js';
import type { OrgRecord, RepoRecord, SandboxState } from '../../core/state.js';
import { createLabel } from './service.js';

export interface SeedLabel {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
}

function seedLabels(state: SandboxState, owner: { repoId: number } | { orgId: number }, raw: unknown, path: string): void {
  list(raw, path).forEach((l, i) => {
    const p = `${path}[${i}]`;
    const o = obj(l, p, ['name', 'color', 'description', 'exclusive', 'is_archived']);
    const res = createLabel(state, owner, {
      name: str(o.name, `${p}.name`, true)!,
      color: str(o.color, `${p}.color`, true)!,
      description: str(o.description, `${p}.description`),
      exclusive: bool(o.exclusive, `${p}.exclusive`),
      isArchived: bool(o.is_archived, `${p}.is_archived`),
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  });
}

export const orgLabelsSeed: NestedSeed<OrgRecord> = {
  keys: ['labels'],
  load: (cx, org, o, p) => seedLabels(cx.state, { orgId: org.id }, o.labels, `${p}.labels`),
};

export const repoLabelsSeed: NestedSeed<RepoRecord> = {
  keys: ['labels'],
  phase: 'early',
  load: (cx, repo, o, p) => seedLabels(cx.state, { repoId: repo.id }, o.labels, `${p}.labels`),
};
