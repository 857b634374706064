/** What the repository answer says of its mirror (services/convert/repository.go ToRepo). */
import type { ConvertContext } from '../../core/convert.js';
import type { RepoRecord } from '../../core/state.js';
import { formatGoDuration } from '../../../go-duration.js';
import { pullMirrorOf } from './records.js';
import { goUrlRefuses, sanitizeUrl } from './service.js';

/**
 * What `convert.ToRepo` answers of a repository's mirror: `mirror`, `mirror_interval` (Duration.String, ""
 * when not a mirror), `original_url` as SanitizedOriginalURL makes it (models/repo/repo.go, e.g. v1.25.4
 * l.255–261): without user name and password, and "" where url.Parse fails (the error is dropped).
 */
export function mirrorAnswer(ctx: Pick<ConvertContext, 'state'>, repo: RepoRecord): { mirror: boolean; mirror_interval: string; original_url: string } {
  const m = pullMirrorOf(ctx.state, repo.id);
  const url = repo.originalUrl ?? '';
  return { mirror: m !== undefined, mirror_interval: m ? formatGoDuration(BigInt(m.interval)) : '', original_url: url && !goUrlRefuses(url) ? sanitizeUrl(url) : '' };
}

