import type { TeamView } from '../model.ts';

/** This month's submissions against the allowance; past 95 % the bar turns to a warning. */
export function UsageBar(props: { team: TeamView }) {
  const { usage, plan } = props.team;
  const near = usage.submissions >= usage.nearLimitFrom;
  return (
    <section class="usage" aria-labelledby="usage-title">
      <h2 id="usage-title">This month</h2>
      <label for="usage-meter">
        {usage.submissions.toLocaleString()} of {usage.allowance.toLocaleString()} submissions (
        {plan} plan)
      </label>
      <meter
        id="usage-meter"
        min={0}
        max={usage.allowance}
        value={usage.submissions}
        high={usage.nearLimitFrom}
        optimum={0}
      />
      <p class={near ? 'warning' : 'hint'}>
        {near
          ? `Near the limit: posts now answer with a near_limit warning, and stop at ${usage.allowance.toLocaleString()}.`
          : `Posts carry a near_limit warning from ${usage.nearLimitFrom.toLocaleString()} on (95 %).`}
      </p>
    </section>
  );
}
