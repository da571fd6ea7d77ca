/** Named numbers as a definition list under a heading (totals, a type's block, a field). */
export function Facts(props: { title: string; facts: [string, string][]; level?: 2 | 3 }) {
  const Heading = props.level === 3 ? 'h3' : 'h2';
  return (
    <section class="facts">
      <Heading>{props.title}</Heading>
      <FactList facts={props.facts} />
    </section>
  );
}

export function FactList(props: { facts: readonly (readonly [string, string])[]; label?: string }) {
  return (
    <dl class="totals" aria-label={props.label}>
      {props.facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
