/**
 * A user create is a POST, then a PATCH for what the POST cannot set (src/kinds/user/ops.ts). When the
 * PATCH never arrives, the user must not look finished: the POST gives the user this login name,
 * which every release stores from the create (`LoginName: form.LoginName`) and returns to an
 * administrator in the User answer, and which the PATCH replaces (it always sends login_name). A local
 * user signs in with its name or e-mail, never its login name, so the mark changes nothing for it.
 * The colon keeps it from being any real login name a user would declare.
 */
export const UNFINISHED_LOGIN_NAME = 'forgeform:unfinished';

/**
 * Settings only the PATCH sends and the server never returns: on an unfinished user they are read as
 * unknown (null), so that the plan shows them still to send. The readable ones (admin, prohibit_login,
 * website, …) are compared as they are.
 */
export const SET_BY_FOLLOW_UP = ['max_repo_creation', 'allow_create_organization', 'allow_git_hook', 'allow_import_local'];

export function isUnfinished(fields: Record<string, unknown>): boolean {
  return fields.login_name === UNFINISHED_LOGIN_NAME;
}
