/** Notification threads (`models/activities/notification.go`), saved in the state file (`StateData` extends {@link NotificationsData}). */

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

export interface NotificationsData {
  notifications: NotificationRecord[];
}

export function emptyNotificationsData(): NotificationsData {
  return { notifications: [] };
}
