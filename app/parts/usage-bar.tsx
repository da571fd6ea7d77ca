import type { TeamView } from '../model.ts';
import { planWords } from '../team-model.ts';

/** From 95 % of the month's allowance on: new submissions will soon be refused. */
export const nearLimit = (team: TeamView) => team.usage.submissions >= team.usage.nearLimitFrom;

/**
 * This month's submissions against the plan's allowance; from 95 % on
 * (`nearLimitFrom`) the bar turns to a warning, and at the allowance new
 * submissions are refused until the month ends (docs/submit.md#processing-order).
 */
export function UsageBar(props: { team: TeamView }) {
  const { usage, plan } = props.team;
  const near = nearLimit(props.team);
  const allowance = usage.allowance.toLocaleString();
  return (
    <section class="usage" aria-labelledby="usage-title">
      <h2 id="usage-title">This month</h2>
      <label for="usage-meter">
        {usage.submissions.toLocaleString()} of {allowance} submissions ({planWords(plan)})
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
          ? `Nearly at this month's allowance: from ${allowance} submissions, new ones are refused until the month ends.`
          : `The plan takes ${allowance} submissions a month; this bar turns to a warning at ${usage.nearLimitFrom.toLocaleString()}.`}
      </p>
    </section>
  );
}
