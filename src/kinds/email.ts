import { quote } from '../inert.js';

/**
 * Why Gitea refuses an e-mail address (422), as `validateEmailBasic` checks it: v1.25.4
 * models/user/email_address.go l.495–512 (its emailRegexp, no leading "-", then net/mail parsing).
 * `ValidateEmail` (l.156) runs it for a user's e-mail and for an organisation's (ReplacePrimaryEmailAddress):
 * one check for both kinds.
 */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export function emailProblem(email: string): string | undefined {
  if (!email.includes('@') || !EMAIL.test(email) || email.startsWith('-') || email.startsWith('@'))
    return `email: ${quote(email)} is not an e-mail address Gitea accepts (letters, digits and .!#$%&'*+-/=?^_\`{|}~ before the @, a host name after it)`;
  return undefined;
}
