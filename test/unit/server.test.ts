import { describe, expect, it } from 'vitest';
import { describeAvailability, parseServerSpec, serverFromReports, serverHas, type ServerInfo } from '../../src/model/server.js';

const gitea = (version: string): ServerInfo => ({ flavour: 'gitea', version });
const forgejo = (version: string): ServerInfo => ({ flavour: 'forgejo', version });

describe('the server’s fork and release', () => {
  it('is Forgejo when its own version route answers, Gitea when that route is a 404, and by the number when a proxy hides it', () => {
    expect(serverFromReports({ version: '11.0.2+gitea-1.22.0', forgejo: { version: '11.0.2+gitea-1.22.0' } })).toEqual({ flavour: 'forgejo', version: '11.0.2', reported: '11.0.2+gitea-1.22.0' });
    expect(serverFromReports({ version: '1.25.4', forgejo: { absent: true } })).toEqual({ flavour: 'gitea', version: '1.25.4' });
    expect(serverFromReports({ version: '15.0.3', forgejo: {} })).toMatchObject({ flavour: 'forgejo', version: '15.0.3' });
    expect(serverFromReports({ version: '1.24.0', forgejo: {} })).toMatchObject({ flavour: 'gitea' });
    // A development build is the release it leads to.
    expect(serverFromReports({ version: '1.26.0+dev-120-gabc123', forgejo: { absent: true } })).toMatchObject({ flavour: 'gitea', version: '1.26.0' });
    expect(serverFromReports({ version: 'development', forgejo: { absent: true } })).toBeUndefined();
  });

  it('has a field within its fork’s bounds, as precisely as the bound is written; the frozen +gitea suffix unlocks nothing', () => {
    const a = { gitea: { since: '1.23' } };
    expect(serverHas(gitea('1.22.6'), a)).toBe(false);
    expect(serverHas(gitea('1.23.0'), a)).toBe(true);
    expect(serverHas(forgejo('11.0.2'), a)).toBe(false);
    const until = { gitea: { until: '1.25' }, forgejo: {} };
    expect(serverHas(gitea('1.25.9'), until)).toBe(true);
    expect(serverHas(gitea('1.26.0'), until)).toBe(false);
    expect(serverHas(forgejo('7.0.16'), until)).toBe(true);
    expect(serverHas(forgejo('14.0.1'), { forgejo: { since: '15' } })).toBe(false);
    expect(serverHas(undefined, a)).toBe(true);
    expect(describeAvailability({ gitea: { since: '1.22' }, forgejo: {} })).toBe('Gitea ≥ 1.22 or Forgejo');
  });

  it('reads --server-version as FLAVOUR@VERSION', () => {
    expect(parseServerSpec('forgejo@11')).toEqual({ flavour: 'forgejo', version: '11.0.0', assumed: true });
    expect(parseServerSpec('Gitea@1.25.4')).toEqual({ flavour: 'gitea', version: '1.25.4', assumed: true });
    expect(parseServerSpec('gitea 1.25')).toMatch(/is not FLAVOUR@VERSION/);
  });
});
