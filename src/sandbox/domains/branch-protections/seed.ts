/** Seed key `repos[].branch_protections`: `POST …/branch_protections` bodies, stored as after that create (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { bindBody } from '../../http/binding.js';
import { list, SeedError } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { CreateBranchProtectionOption } from './options.js';
import { createProtection } from './service.js';

export interface SeedBranchProtections {
  /** Bodies of `POST …/branch_protections`, stored as the server would after that create. */
  branch_protections?: Record<string, unknown>[];
}

export const repoProtectionsSeed: NestedSeed<RepoRecord> = {
  keys: ['branch_protections'],
  phase: 'late',
  load: (cx, repo, o, p) => {
    list(o.branch_protections, `${p}.branch_protections`).forEach((bp, j) => {
      const bpPath = `${p}.branch_protections[${j}]`;
      const bound = bindBody(CreateBranchProtectionOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(bp ?? {}), query: new URLSearchParams() });
      if (bound.unknownFields.length) throw new SeedError(`${bpPath}.${bound.unknownFields[0]}: unknown branch protection field`);
      if (bound.error) throw new SeedError(`${bpPath}: ${bound.error}`);
      const res = createProtection(cx.state, repo, bound.form);
      if (isFailure(res)) throw new SeedError(`${bpPath}: ${res.message}`);
    });
  },
};
