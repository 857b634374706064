/** Notification threads of the caller: list, mark read, new count, one thread. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerNotificationRoutes } from './routes.js';
import { loadNotificationsSeed } from './seed.js';
import { emptyNotificationsData } from './records.js';

export const notificationsDomain: SandboxDomain = {
  name: 'notifications',
  data: { empty: emptyNotificationsData },
  routes: registerNotificationRoutes,
  seed: { keys: ['notifications'], load: loadNotificationsSeed },
  cascade: {
    // A notification's issue is always one of its own repository's.
    repo: (state, repoId) => {
      state.data.notifications = state.data.notifications.filter((n) => n.repoId !== repoId);
    },
    user: (state, userId) => {
      state.data.notifications = state.data.notifications.filter((n) => n.userId !== userId);
    },
  },
};
