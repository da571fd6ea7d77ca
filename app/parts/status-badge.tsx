import type { Form } from '../model.ts';

const WHY: Record<NonNullable<Form['closedReason']>, string> = {
  manual: 'Paused',
  max_submissions: 'Closed: submission limit reached',
  auto_close_date: 'Closed: close date passed',
};

/** Open, paused, or closed and why (docs/forms.md). */
export function StatusBadge(props: { status: Form['status']; closedReason: Form['closedReason'] }) {
  const text = props.status === 'active' ? 'Open' : WHY[props.closedReason ?? 'manual'];
  return <span class={`badge ${props.status}`}>{text}</span>;
}
