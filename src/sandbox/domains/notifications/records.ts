/** Notification threads (`models/activities/notification.go`), saved in the state file (part of `StateData`). */
import type { StateData } from '../../core/state.js';

export type NotificationSource = 'issue' | 'pull' | 'commit' | 'repository';
export type NotificationStatus = 'unread' | 'read' | 'pinned';

export interface NotificationRecord {
  id: number;
  userId: number;
  repoId: number;
  source: NotificationSource;
  /** The issue (or pull request) record id; 0 for commits and repositories. */
  issueId: number;
  commitId: string;
  status: NotificationStatus;
  createdAt: string;
  updatedAt: string;
}

declare module '../../core/state.js' {
  /** The notifications domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    notifications: NotificationRecord[];
  }
}

export type NotificationsData = Pick<StateData, 'notifications'>;

export function emptyNotificationsData(): NotificationsData {
  return { notifications: [] };
}
