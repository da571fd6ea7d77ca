/** What the screens read of the API's answers (the route contracts' shapes). */

export interface FormSummary {
  id: string;
  name: string;
  type: string;
  emoji: string | null;
  status: 'active' | 'paused';
  key: string;
  endpoint: string;
  createdAt: string;
  submissionCount: number;
  unreadCount: number;
}

export interface FieldDefinition {
  id: string;
  type: string;
  label?: string;
  options?: string[];
}

export interface Form extends Omit<FormSummary, 'unreadCount'> {
  closedReason: 'manual' | 'max_submissions' | 'auto_close_date' | null;
  fields: FieldDefinition[] | null;
  dontStoreIp: boolean;
}

export interface TeamView {
  teamId: string;
  name: string;
  plan: 'free' | 'pro';
  usage: { month: string; submissions: number; allowance: number; nearLimitFrom: number };
  memberCount: number;
  formCount: number;
  formLimit: number | null;
}

export interface Submission {
  id: string;
  formId: string;
  data: Record<string, string>;
  meta: {
    ip?: string;
    userAgent?: string;
    referrer?: string;
    country?: string;
    deviceClass?: string;
    files?: { name: string; mime: string; size: number }[];
  };
  read: boolean;
  starred: boolean;
  isSpam: boolean;
  isTest: boolean;
  createdAt: string;
  preview?: string;
}

export interface SubmissionPage {
  items: Submission[];
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  unreadCount: number;
  asOf: string;
}

export type Folder = 'all' | 'unread' | 'starred' | 'spam';
export const FOLDERS: Folder[] = ['all', 'unread', 'starred', 'spam'];
