import type { ComponentChildren } from 'preact';

/** One part of the team screen, under its heading (a landmark named by it). */
export function TeamSection(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}
