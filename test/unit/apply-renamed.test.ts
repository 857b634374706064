// What Gitea's redirect for a renamed name means to the change on its way (src/apply/renamed.ts).
import { describe, expect, it } from 'vitest';
import { renamedMeanwhile } from '../../src/apply/renamed.js';
import { ApiError } from '../../src/gitea/errors.js';
import type { Change } from '../../src/plan/types.js';

const change = (action: Change['action'], key: string, from?: string): Change =>
  ({ id: `user server: ${key}`, kind: 'user', scope: 'server:', key, action, ...(from ? { from } : {}), fields: [], precondition: { digest: 'x' }, depends_on: [], ops: [] });
const redirect = (path: string, location: string | undefined, status = 307) => {
  const e = new ApiError('POST', path, status, location ? `moved to ${location}` : '');
  if (location) e.location = location;
  return e;
};

describe('renamedMeanwhile', () => {
  it('a rename answered with a redirect to the name it renames to is done', () => {
    const path = 'admin/users/bob-old/rename';
    expect(renamedMeanwhile(change('rename', 'bob', 'bob-old'), { path }, redirect(path, '/api/v1/admin/users/bob/rename'), 'user')).toEqual({
      note: 'it was already renamed to "bob" (by another run?): nothing to do for the rename',
    });
  });

  it('compares names decoded, and only the tail of a Location under a sub-path', () => {
    const path = 'admin/users/j%C3%B6rg/rename';
    expect(renamedMeanwhile(change('rename', 'jo rg', 'jörg'), { path }, redirect(path, '/gitea/api/v1/admin/users/jo%20rg/rename?x=1'), 'user')?.note).toContain('already renamed to "jo rg"');
  });

  it('a redirect to another name is an error naming both names, the request and what to do', () => {
    const path = 'admin/users/bob';
    expect(renamedMeanwhile(change('update', 'bob'), { path }, redirect(path, '/api/v1/admin/users/robert'), 'user')?.error).toBe(
      'user "bob" was renamed to "robert" on the server since the plan read it (by another run or by hand), so nothing more was sent for this change (POST /api/v1/admin/users/bob → 307 Temporary Redirect, to /api/v1/admin/users/robert): plan again to see what is left',
    );
  });

  it('leaves alone what is no such redirect: another origin, no Location, another status, another path', () => {
    const c = change('rename', 'bob', 'bob-old');
    const path = 'admin/users/bob-old/rename';
    expect(renamedMeanwhile(c, { path }, redirect(path, 'https://elsewhere.example/api/v1/admin/users/bob/rename'), 'user')).toBeUndefined();
    expect(renamedMeanwhile(c, { path }, redirect(path, '//elsewhere.example/api/v1/admin/users/bob/rename'), 'user')).toBeUndefined();
    expect(renamedMeanwhile(c, { path }, redirect(path, undefined), 'user')).toBeUndefined();
    expect(renamedMeanwhile(c, { path }, new ApiError('POST', path, 404, 'user redirect does not exist'), 'user')).toBeUndefined();
    expect(renamedMeanwhile(c, { path }, redirect(path, '/api/v1/admin/orgs/bob/members'), 'user')).toBeUndefined();
    expect(renamedMeanwhile(c, { path }, new Error('x'), 'user')).toBeUndefined();
  });
});
