/** Seed key `repos[].deploy_keys`: `POST …/keys` bodies, stored as after that create (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { bindBody } from '../../http/binding.js';
import { list, SeedError } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { CreateKeyOption } from '../users/options.js';
import { addDeployKey } from './service.js';

export interface SeedDeployKeys {
  /** Bodies of `POST …/keys` ({title, key, read_only}), stored as the server would after that create. */
  deploy_keys?: Record<string, unknown>[];
}

export const repoDeployKeysSeed: NestedSeed<RepoRecord> = {
  keys: ['deploy_keys'],
  load: (cx, repo, o, p) => {
    list(o.deploy_keys, `${p}.deploy_keys`).forEach((k, j) => {
      const at = `${p}.deploy_keys[${j}]`;
      const bound = bindBody(CreateKeyOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(k ?? {}), query: new URLSearchParams() });
      if (bound.unknownFields.length) throw new SeedError(`${at}.${bound.unknownFields[0]}: unknown deploy key field`);
      if (bound.error) throw new SeedError(`${at}: ${bound.error}`);
      const res = addDeployKey(cx.state, repo, bound.form.title, bound.form.key, bound.form.read_only ?? false);
      if (isFailure(res)) throw new SeedError(`${at}: ${res.message}`);
    });
  },
};
