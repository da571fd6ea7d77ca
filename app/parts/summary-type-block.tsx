import type { FormAnalytics } from '../model.ts';
import { minutes, number } from '../summary-model.ts';
import { DayLine } from './charts.tsx';
import { Facts } from './summary-facts.tsx';

/** The block of the form's type (docs/analytics.md#summary): replies, signups, ratings or answers. */
export function TypeBlock(props: { summary: FormAnalytics; dates: string[] }) {
  const { summary, dates } = props;
  const block = summary.byType as Record<string, unknown>;
  switch (summary.type) {
    case 'contact': {
      const { unread, medianMinutesToFirstRead } = block as {
        unread: number;
        medianMinutesToFirstRead: number | null;
      };
      return (
        <Facts
          title="Replies"
          facts={[
            ['Unread', number(unread)],
            ['Median time to first read', minutes(medianMinutesToFirstRead)],
          ]}
        />
      );
    }
    case 'waitlist': {
      const { signups, uniqueEmails, cumulative } = block as {
        signups: number;
        uniqueEmails: number;
        cumulative: { date: string; total: number }[];
      };
      return (
        <>
          <Facts
            title="Signups"
            facts={[
              ['Signups', number(signups)],
              ['New addresses', number(uniqueEmails)],
            ]}
          />
          <DayLine
            title="Signups since the start"
            dates={dates}
            series={{ name: 'Total', values: cumulative.map((c) => c.total), tone: 'series-a' }}
          />
        </>
      );
    }
    case 'feedback':
      return <Ratings summary={summary} dates={dates} />;
    case 'rsvp': {
      const { yes, no, maybe, guests } = block as Record<'yes' | 'no' | 'maybe' | 'guests', number>;
      return (
        <Facts
          title="Answers"
          facts={[
            ['Yes', number(yes)],
            ['No', number(no)],
            ['Maybe', number(maybe)],
            ['Guests of the yeses', number(guests)],
          ]}
        />
      );
    }
    default:
      return null;
  }
}

function Ratings(props: { summary: FormAnalytics; dates: string[] }) {
  const { summary, dates } = props;
  const { ratingField, average, distribution, trend, nps } = summary.byType as {
    ratingField: string | null;
    average: number | null;
    distribution: Record<string, number>;
    trend: { date: string; average: number | null }[];
    nps: { promoters: number; passives: number; detractors: number; score: number } | null;
  };
  if (!ratingField) return <p class="hint">This form has no rating field.</p>;
  const scale = summary.fields[ratingField];
  const top = scale?.kind === 'rating' ? scale.max : Object.keys(distribution).length;
  return (
    <>
      <Facts
        title="Ratings"
        facts={[
          ['Average', number(average)],
          ...(nps
            ? ([
                ['NPS', number(nps.score)],
                ['Promoters', number(nps.promoters)],
                ['Passives', number(nps.passives)],
                ['Detractors', number(nps.detractors)],
              ] as [string, string][])
            : []),
        ]}
      />
      <DayLine
        title="Average rating each day"
        dates={dates}
        max={top}
        series={{ name: 'Average', values: trend.map((t) => t.average), tone: 'series-a' }}
      />
    </>
  );
}
