import { useEffect, useState } from 'preact/hooks';
import { FIRST_DATE, LAST_DATE } from '#domain/summary-dates.ts';
import { daysBefore } from '../summary-model.ts';

/** The person's own time zone: the days of the summary are theirs. */
export const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const PRESETS: [string, number][] = [
  ['7 days', 7],
  ['30 days', 30],
  ['90 days', 90],
  ['12 months', 365],
];

/** Today, `YYYY-MM-DD`, in the person's time zone. */
export const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** The summary's days: two dates and a Show, or a preset. */
export function RangePicker(props: {
  from: string;
  to: string;
  onPick: (range: { from: string; to: string }) => void;
}) {
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  useEffect(() => {
    setFrom(props.from);
    setTo(props.to);
  }, [props.from, props.to]);
  return (
    <form
      class="range"
      aria-label="Days"
      onSubmit={(event) => {
        event.preventDefault();
        props.onPick({ from, to });
      }}
    >
      <DateField label="From" value={from} min={FIRST_DATE} max={to} onInput={setFrom} />
      <DateField label="To" value={to} min={from} max={LAST_DATE} onInput={setTo} />
      <button type="submit">Show</button>
      <span class="presets">
        {PRESETS.map(([label, days]) => (
          <button
            key={label}
            type="button"
            class="quiet"
            onClick={() => props.onPick({ from: daysBefore(today(), days - 1), to: today() })}
          >
            Last {label}
          </button>
        ))}
      </span>
      <p class="hint">Days in {ZONE}, your time zone.</p>
    </form>
  );
}

function DateField(props: {
  label: string;
  value: string;
  min: string;
  max: string;
  onInput: (value: string) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <input
        type="date"
        value={props.value}
        min={props.min}
        max={props.max}
        required
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </label>
  );
}
