const WHY: Record<string, string> = {
  manual: 'paused',
  max_submissions: 'closed: submission limit reached',
  auto_close_date: 'closed: close date passed',
};

/** Active, paused, or closed and why. */
export function StatusBadge(props: { status: 'active' | 'paused'; closedReason: string | null }) {
  const text =
    props.status === 'active' ? 'active' : (WHY[props.closedReason ?? 'manual'] ?? 'paused');
  return <span class={`badge ${props.status}`}>{text}</span>;
}
