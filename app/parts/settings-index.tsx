import type { Group } from '../settings-model.ts';

/** Goes to a section: its heading takes the keyboard, so Tab goes on from there. */
export function goToSection(id: string): void {
  const heading = document.getElementById(`${id}-title`);
  heading?.scrollIntoView({ block: 'start' });
  heading?.focus();
}

/** The sections of the settings, linked, each marked while it holds unsaved changes. */
export function SettingsIndex(props: { groups: readonly Group[]; unsaved: ReadonlySet<string> }) {
  const sections = [...props.groups, { id: 'danger', title: 'Danger zone' }];
  return (
    <nav class="section-index" aria-label="Sections">
      <ul>
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              onClick={(event) => {
                event.preventDefault();
                goToSection(section.id);
              }}
            >
              {section.title}
              {props.unsaved.has(section.title) && <span class="unsaved"> (unsaved changes)</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
