// The Gitea answers tests read, as one set of shapes (only the members some test reads).

export interface ApiLabel {
  id: number;
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  is_archived: boolean;
  url: string;
}

export interface ApiIssue {
  id: number;
  number: number;
  title: string;
  body: string;
  ref: string;
  state: string;
  labels: ApiLabel[];
  milestone: { id: number; title: string } | null;
  assignees: { login: string }[] | null;
  assignee: { login: string } | null;
  due_date: string | null;
  content_version: number;
  projects: { id: number; title: string }[];
  user: { login: string };
  closed_at: string | null;
}

export interface ApiHook {
  id: number;
  name: string;
  type: string;
  branch_filter: string;
  config: Record<string, string>;
  events: string[];
  authorization_header: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface ApiUser {
  id: number;
  login: string;
  login_name: string;
  full_name: string;
  visibility: string;
  is_admin: boolean;
  prohibit_login: boolean;
}

export interface ApiRunner {
  id: number;
  name: string;
  status: string;
  busy: boolean;
  disabled: boolean;
  ephemeral: boolean;
  labels: { id: number; name: string; type: string }[];
}
