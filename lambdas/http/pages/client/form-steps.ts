/// <reference lib="dom" />
/**
 * Steps, and fields shown and hidden as answers change, in the browser
 * (docs/uploads-and-pages.md#steps): the hosted page, the embed and the
 * pasted HTML form's script all run this on a form drawn with its pages as
 * sections (page-sections.ts). What is asked is the evaluator's to say, the
 * same module the submit path walks (domain/form-logic.ts), so the browser
 * shows exactly what the server will keep:
 *
 * - a field the walk does not ask is hidden, its controls disabled (so it
 *   is not posted), and its answer cleared when it stops being asked;
 * - with pages, one section is shown at a time under a heading "Step 2 of
 *   4: title" that takes focus on every move, and a polite live region says
 *   the move and the questions an answer adds or takes away; Back keeps the
 *   answers, Next checks only this step's asked fields, and the last step's
 *   button (the form's own) sends; pages ahead are disabled until reached,
 *   so pressing Enter never trips over a question not reached yet.
 *
 * How a step's answers are checked is the caller's (`check`): the hosted
 * page and the embed with the server's own checks and their error lines,
 * the pasted form with the browser's own.
 */
import type { FormPage, LogicForm, Walk } from '#domain/form-logic.ts';
import { walk } from '#domain/form-logic.ts';
import type { FieldDefinition } from '#domain/form-model.ts';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface StepsOptions {
  element: HTMLFormElement;
  form: { fields: readonly FieldDefinition[]; pages: readonly FormPage[] | null };
  /** Checks `fields` (required as the walk says) and shows what fails; true when they pass. */
  check: (fields: FieldDefinition[]) => boolean;
  /** The level of the step's heading: one under the form's title. */
  headingLevel: number;
  /** A page reached for the first time on this page load: its place in the form, from 2. */
  onReached?: (place: number) => void;
}

export interface Steps {
  /** Whether the step shown is the last of the walk (or there are no steps): its button sends. */
  atLastStep(): boolean;
  /** Checks this step's asked fields; when they pass, shows the next step. */
  next(): void;
  /** The fields the walk asks now, each required as the walk says: what a send is checked on. */
  askedFields(): FieldDefinition[];
  /** Shows the step holding a field (a refused answer), when that step is on the way. */
  showStepOf(fieldId: string): void;
}

/** Answers as the walk reads them, from every control (disabled ones too: answers ahead are kept). */
function answersOf(fields: readonly FieldDefinition[], controls: Map<string, Control[]>) {
  const answers: Record<string, string> = {};
  for (const field of fields) {
    const values: string[] = [];
    for (const control of controls.get(field.id) ?? []) {
      if (control instanceof HTMLInputElement) {
        if (control.type === 'checkbox' || control.type === 'radio') {
          if (control.checked) values.push(control.value);
        } else if (control.type === 'file') {
          if ((control.files?.length ?? 0) > 0) values.push('file');
        } else values.push(control.value);
      } else values.push(control.value);
    }
    if (values.length > 0) answers[field.id] = values.join(',');
  }
  return answers;
}

/** Clears what a person answered (a hidden field's value is the site's, not theirs: kept). */
function clear(control: Control) {
  if (control instanceof HTMLInputElement) {
    if (control.type === 'hidden') return;
    if (control.type === 'checkbox' || control.type === 'radio') control.checked = false;
    else control.value = '';
  } else if (control instanceof HTMLSelectElement) control.selectedIndex = 0;
  else control.value = '';
}

/** A region screen readers read politely, out of sight (CSSOM: no `style` attribute for CSP). */
function liveRegion(): HTMLElement {
  const region = document.createElement('p');
  region.setAttribute('aria-live', 'polite');
  region.className = 'fs-sr';
  Object.assign(region.style, {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
    margin: '0',
  });
  return region;
}

const labelOf = (field: FieldDefinition) => (field.label?.trim() ? field.label : field.id);

/** Words for the live region as a sentence: a full stop, unless a label ends with its own ("Which?"). */
const sentence = (text: string) => (/[.?!]$/.test(text) ? text : `${text}.`);

export function formSteps(options: StepsOptions): Steps {
  const { element } = options;
  const fields = options.form.fields;
  const pages = options.form.pages ?? [];
  const logic: LogicForm = { fields, pages };
  const controls = new Map<string, Control[]>(fields.map((field) => [field.id, []]));
  for (const control of element.elements) {
    const name = (control as Control).name;
    if (name && controls.has(name)) controls.get(name)!.push(control as Control);
  }
  const boxOf = (id: string) =>
    element.querySelector<HTMLElement>(`[data-fs-field="${id}"]`) ??
    controls.get(id)?.[0]?.closest<HTMLElement>('.fs-field') ??
    null;
  const pageOf = new Map<string, number>();
  pages.forEach((page, index) => {
    for (const id of page.fields) if (!pageOf.has(id)) pageOf.set(id, index);
  });
  const sections = pages.map((page) =>
    element.querySelector<HTMLElement>(`[data-fs-page="${page.id}"]`),
  );
  // Steps need every page drawn as its section (a form pasted before its pages were added
  // has none): otherwise the form stays one page, its fields still shown and hidden.
  const stepped = pages.length > 1 && sections.every(Boolean);
  const submit = element.querySelector<HTMLButtonElement>('button[type=submit],input[type=submit]');

  const region = liveRegion();
  element.append(region);
  const say = (text: string) => {
    // Emptied first, so the same words said twice are said again.
    region.textContent = '';
    setTimeout(() => {
      region.textContent = text;
    }, 50);
  };

  let current = pages[0]?.id ?? '';
  let last: Walk = walk(logic, {});
  // None yet: a field not asked when the page is drawn keeps its prefilled value (disabled).
  let asked = new Set<string>();
  let stepCount = 0;
  const reached = new Set<string>([current]);

  const heading = document.createElement(`h${Math.min(Math.max(options.headingLevel, 2), 6)}`);
  heading.className = 'fs-step';
  heading.tabIndex = -1;
  const nav = document.createElement('div');
  nav.className = 'fs-nav';
  const back = button('Back', 'fs-back');
  const forward = button('Next', 'fs-submit fs-next');
  if (stepped) {
    sections[0]!.before(heading);
    for (const section of sections) {
      const title = section!.querySelector<HTMLElement>('.fs-page-title');
      // The step's heading says the title: the section's own is for the form without script.
      if (title) title.hidden = true;
    }
    if (submit) {
      submit.before(nav);
      nav.append(back, forward, submit);
    } else element.append(nav);
    back.addEventListener('click', () => move(-1));
    forward.addEventListener('click', () => api.next());
  }

  function button(text: string, className: string) {
    const made = document.createElement('button');
    made.type = 'button';
    made.className = className;
    made.textContent = text;
    return made;
  }

  const pageIndex = (id: string) => pages.findIndex((page) => page.id === id);

  /** Walks the answers now and draws what it gives; `tell` says what the answer changed. */
  function update(tell: boolean) {
    last = walk(logic, answersOf(fields, controls));
    const active = new Set(last.active);
    const required = new Set(last.required);
    const at = stepped ? pageIndex(current) : -1;
    const added: string[] = [];
    const removed: string[] = [];
    for (const field of fields) {
      const on = active.has(field.id);
      const was = asked.has(field.id);
      const list = controls.get(field.id) ?? [];
      if (was && !on) for (const control of list) clear(control);
      const ahead = stepped && (pageOf.get(field.id) ?? 0) > at;
      const group = list.length > 1 && list[0]!.type === 'checkbox';
      for (const control of list) {
        control.disabled = !on || ahead;
        // HTML cannot say "at least one" of a group of tick boxes: the checks do.
        if (!group) control.required = required.has(field.id);
      }
      const box = boxOf(field.id);
      if (box) {
        box.hidden = !on;
        const star = box.querySelector<HTMLElement>('.fs-req');
        if (star) star.hidden = !required.has(field.id);
      }
      const here = !stepped || pageOf.get(field.id) === at;
      if (tell && here && on !== was && field.type !== 'hidden') {
        (on ? added : removed).push(labelOf(field));
      }
    }
    asked = active;
    if (stepped) drawStep();
    const words: string[] = [];
    if (added.length > 0) words.push(sentence(`Now asked: ${added.join(', ')}`));
    if (removed.length > 0) words.push(sentence(`No longer asked: ${removed.join(', ')}`));
    if (tell && stepped && last.pages.length !== stepCount) {
      words.push(`This form now has ${last.pages.length} steps.`);
    }
    if (stepped) stepCount = last.pages.length;
    if (words.length > 0) say(words.join(' '));
  }

  function drawStep() {
    const at = pageIndex(current);
    sections.forEach((section, index) => {
      section!.hidden = index !== at;
    });
    const place = Math.max(last.pages.indexOf(current), 0) + 1;
    const count = Math.max(last.pages.length, place);
    const title = pages[at]?.title?.trim();
    heading.textContent =
      count > 1 ? `Step ${place} of ${count}${title ? `: ${title}` : ''}` : (title ?? '');
    heading.hidden = heading.textContent === '';
    back.hidden = place <= 1;
    forward.hidden = place >= count;
    if (submit) submit.hidden = place < count;
  }

  /** Shows step `id`, focuses its heading and says where the person is. */
  function go(id: string) {
    current = id;
    update(false);
    if (!reached.has(id)) {
      reached.add(id);
      options.onReached?.(pageIndex(id) + 1);
    }
    const target = heading.hidden
      ? (sections[pageIndex(id)]?.querySelector<HTMLElement>('input,select,textarea') ?? heading)
      : heading;
    target.focus();
    say(heading.textContent ?? '');
  }

  function move(by: -1 | 1) {
    const at = last.pages.indexOf(current);
    const to = last.pages[at + by];
    if (to !== undefined) go(to);
  }

  const askedFields = () => {
    const required = new Set(last.required);
    const byId = new Map(fields.map((field) => [field.id, field]));
    return last.active.map((id) => ({ ...byId.get(id)!, required: required.has(id) }));
  };

  const api: Steps = {
    atLastStep: () => !stepped || last.pages.indexOf(current) >= last.pages.length - 1,
    next() {
      update(false);
      const here = askedFields().filter((field) => pageOf.get(field.id) === pageIndex(current));
      if (options.check(here)) move(1);
    },
    askedFields,
    showStepOf(fieldId: string) {
      const page = pages[pageOf.get(fieldId) ?? -1];
      if (!stepped || !page || page.id === current || !last.pages.includes(page.id)) return;
      current = page.id;
      update(false);
    },
  };

  const changed = () => update(true);
  element.addEventListener('input', changed);
  element.addEventListener('change', changed);
  update(false);
  stepCount = last.pages.length;
  return api;
}
