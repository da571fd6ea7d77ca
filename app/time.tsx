const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", from `at` to `now`. */
export function ago(at: string, now = Date.now()): string {
  let amount = (Date.parse(at) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return new Date(at).toLocaleString();
}

/** A time shown relative, the exact one on hover and for assistive technology. */
export function When(props: { at: string }) {
  const exact = new Date(props.at).toLocaleString();
  return (
    <time dateTime={props.at} title={exact}>
      {ago(props.at)}
    </time>
  );
}
