/** `GET /user`: the authenticated caller (token required). */
import { signedIn } from '../../http/context.js';
import { scope, reqToken } from '../../http/auth.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toUser } from './convert.js';

export function registerUserRoutes(r: ApiRouter): void {
  r.on('GET', '/user', scope('user'), reqToken, signedIn((ctx) => json(200, toUser(ctx, ctx.doer, ctx.doer))));
}
