/** Seed key `repos[].tag_protections`: `POST …/tag_protections` bodies, stored as after that create (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { bindBody } from '../../http/binding.js';
import { list, SeedError } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { CreateTagProtectionOption } from './options.js';
import { createTagProtection } from './service.js';

export interface SeedTagProtections {
  /** Bodies of `POST …/tag_protections`, stored as the server would after that create. */
  tag_protections?: Record<string, unknown>[];
}

export const repoTagProtectionsSeed: NestedSeed<RepoRecord> = {
  keys: ['tag_protections'],
  phase: 'late',
  load: (cx, repo, o, p) => {
    list(o.tag_protections, `${p}.tag_protections`).forEach((tp, j) => {
      const at = `${p}.tag_protections[${j}]`;
      const bound = bindBody(CreateTagProtectionOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(tp ?? {}), query: new URLSearchParams() });
      if (bound.unknownFields.length) throw new SeedError(`${at}.${bound.unknownFields[0]}: unknown tag protection field`);
      if (bound.error) throw new SeedError(`${at}: ${bound.error}`);
      const res = createTagProtection(cx.state, repo, bound.form);
      if (isFailure(res)) throw new SeedError(`${at}: ${res.message}`);
    });
  },
};
