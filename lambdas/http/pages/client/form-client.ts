/// <reference lib="dom" />
/**
 * The browser side of the hosted page, the embed and the pasted HTML form,
 * bundled by esbuild into `/embed.js` (lib/pages/write-embed.ts). No
 * framework. Three modes, told by the script tag:
 *
 * - `data-page`: on the hosted page, the form is already drawn; the script
 *   reads the public form from the page's JSON block and takes over posting.
 * - `data-form="KEY"`: on a customer's page, the script fetches
 *   `f/KEY/form.json` from the origin it was loaded from and draws the form
 *   into a shadow root (styles isolated both ways), then takes over posting.
 * - `data-logic="KEY"`: after the HTML form pasted from the Share screen, the
 *   script fetches the same JSON and adds the form's logic to the pasted
 *   HTML (prefill, fields shown and hidden, steps); the browser's own checks
 *   and its own post stay (docs/uploads-and-pages.md#the-logic-script).
 *
 * Taking over: answers are checked with the server's own `checkAnswers`
 * (same rules, same reason codes), errors shown beside their fields and
 * announced; chosen files are uploaded straight to S3 (direct-uploads.ts)
 * with a progress bar each; a clean form is posted as JSON (the files' ids
 * in `_uploads`) and the success message replaces it in place. Each post
 * carries an `Idempotency-Key`, kept while the visitor sends the same answers
 * again, so a retry after a lost answer stores once
 * (docs/submit.md#idempotency-key). A form with logic is walked by the
 * server's own evaluator (form-steps.ts), so what is posted is what was asked.
 */
import { checkAnswers } from '#domain/answer-checks.ts';
import { CHECK_YOUR_INBOX } from '#domain/confirmation-words.ts';
import { hasLogic } from '#domain/form-logic.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import type { PublicForm } from '#domain/public-form.ts';
import { MIN_FILL_MS } from '#domain/submission-answers.ts';
import type { AnswerProblem } from '#domain/submission-model.ts';
import { answerMessage } from '#http/pages/answer-messages.ts';
import { formCss, formMarkup, ids } from '#http/pages/form-markup.ts';
import {
  type ChosenFile,
  chosenFiles,
  postFile,
  requestUploads,
  UploadRefused,
} from './direct-uploads.ts';
import { formSteps, type Steps } from './form-steps.ts';
import { prefill, prefillSource } from './prefill-controls.ts';

type Root = Document | ShadowRoot;

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

function byId(root: Root, id: string): HTMLElement | null {
  return root.getElementById(id);
}

/** The answers and files as the endpoint will see them: repeated names joined by `,`. */
function collect(form: HTMLFormElement) {
  const values = new Map<string, string[]>();
  const files: { field: string }[] = [];
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') {
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (value.size > 0 || value.name !== '') {
      files.push({ field: name });
    }
  }
  const data: Record<string, string> = {};
  for (const [name, list] of values) data[name] = list.join(',');
  return { values, data, files };
}

function setStatus(root: Root, text: string, failed: boolean) {
  const status = byId(root, ids.status);
  if (!status) return;
  status.classList.toggle('fs-failed', failed);
  status.textContent = text;
}

/** The element that takes focus and `aria-invalid` for a field: its control, or a group's inputs. */
function controlsOf(root: Root, fieldId: string): HTMLElement[] {
  const control = byId(root, ids.control(fieldId));
  if (!control) return [];
  return control.tagName === 'FIELDSET'
    ? [...control.querySelectorAll<HTMLElement>('input')]
    : [control];
}

function clearErrors(root: Root, form: PublicForm) {
  for (const field of form.fields) {
    const error = byId(root, ids.error(field.id));
    if (error) error.textContent = '';
    for (const control of controlsOf(root, field.id)) control.removeAttribute('aria-invalid');
  }
}

/** Shows each problem beside its field; focuses the first. Returns how many were shown. */
function showProblems(root: Root, form: PublicForm, problems: readonly AnswerProblem[]): number {
  let first: HTMLElement | undefined;
  let shown = 0;
  for (const problem of problems) {
    const field = form.fields.find((candidate) => candidate.id === problem.fieldId);
    const error = byId(root, ids.error(problem.fieldId));
    if (!field || !error) continue;
    error.textContent = answerMessage(field, problem.reason);
    const controls = controlsOf(root, field.id);
    for (const control of controls) control.setAttribute('aria-invalid', 'true');
    first ??= controls[0];
    shown++;
  }
  first?.focus();
  return shown;
}

/**
 * A refusal of the whole post (too many posts, a closed form, an address
 * not allowed): above the form, focused (so it scrolls into sight) and
 * announced; the status by the button is cleared, so it is said once.
 */
function showPostRefusal(root: Root, message: string) {
  const alert = byId(root, ids.alert);
  if (!alert) return setStatus(root, message, true);
  setStatus(root, '', false);
  alert.textContent = message;
  alert.hidden = false;
  alert.focus();
}

function clearPostRefusal(root: Root) {
  const alert = byId(root, ids.alert);
  if (!alert) return;
  alert.hidden = true;
  alert.textContent = '';
}

/** A refusal of the files, shown on their field like an answer's error, and announced. */
function showFileRefusal(root: Root, refusal: UploadRefused) {
  if (refusal.field === undefined) return showPostRefusal(root, refusal.message);
  const error = byId(root, ids.error(refusal.field));
  if (error) error.textContent = refusal.message;
  const controls = controlsOf(root, refusal.field);
  for (const control of controls) control.setAttribute('aria-invalid', 'true');
  controls[0]?.focus();
  setStatus(root, refusal.message, true);
}

/** A labelled progress bar under the file's field; the returned function moves it (0 to 1). */
function progressBar(root: Root, chosen: ChosenFile, index: number) {
  const id = ids.progress(chosen.field, index);
  const box = document.createElement('div');
  box.className = 'fs-upload';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = `Uploading ${chosen.file.name}`;
  const bar = document.createElement('progress');
  bar.id = id;
  bar.max = 100;
  bar.value = 0;
  box.append(label, bar);
  byId(root, ids.control(chosen.field))?.after(box);
  return (fraction: number) => {
    bar.value = Math.round(fraction * 100);
    if (fraction >= 1) label.textContent = `${chosen.file.name}: uploaded`;
  };
}

const filesText = (count: number) => (count === 1 ? '1 file' : `${count} files`);

/**
 * The ids of the chosen files, uploading those not uploaded yet (a post
 * refused for an answer keeps its uploads: the pending objects stay, and
 * the corrected post names them again).
 */
async function uploadFiles(
  root: Root,
  element: HTMLFormElement,
  postUrl: string,
  uploaded: WeakMap<File, string>,
): Promise<string[]> {
  const chosen = chosenFiles(element);
  const pending = chosen.filter(({ file }) => !uploaded.has(file));
  if (pending.length > 0) {
    for (const old of element.querySelectorAll('.fs-upload')) old.remove();
    setStatus(root, `Uploading ${filesText(pending.length)}…`, false);
    const grants = await requestUploads(`${postUrl}/uploads`, pending);
    const bars = pending.map((file, index) => progressBar(root, file, index));
    await Promise.all(
      grants.map(async (grant, index) => {
        const file = pending[index]!;
        await postFile(grant, file, bars[index]!);
        uploaded.set(file.file, grant.uploadId);
      }),
    );
    setStatus(root, `${filesText(pending.length)} uploaded. Sending…`, false);
  }
  return chosen.map(({ file }) => uploaded.get(file)!);
}

const fewer = (count: number) =>
  count === 1 ? 'Please correct 1 field.' : `Please correct ${count} fields.`;

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Answer {
  ok?: boolean;
  /** The post waits for its visitor's confirmation by email (docs/submit.md#confirm-by-email). */
  pending?: string;
  error?: string;
  message?: string;
  issues?: unknown;
}

/** Problems named by a refusal's `issues`, when it lists `{ fieldId, reason }`. */
function problemsIn(answer: Answer): AnswerProblem[] {
  if (!Array.isArray(answer.issues)) return [];
  return answer.issues.filter(
    (issue): issue is AnswerProblem =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as AnswerProblem).fieldId === 'string' &&
      typeof (issue as AnswerProblem).reason === 'string',
  );
}

/** 128 random bits as hex: `getRandomValues` works on plain-http pages too, `randomUUID` does not. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The key of a post: a new one for new answers, the same one for the same
 * answers sent again after a failure (the first may have been stored, its
 * answer lost on the way), so the endpoint stores them once.
 */
function postKeys() {
  let last: { body: string; key: string } | undefined;
  return {
    keyFor(body: string): string {
      if (last?.body !== body) last = { body, key: randomKey() };
      return last.key;
    },
    /** The post was answered for good: the next one is new, whatever its answers. */
    done() {
      last = undefined;
    },
  };
}

/** Where the script came from and what it was told: the page's or the embed's. */
interface Place {
  /** The service's root (where `/embed.js` was loaded from). */
  base: URL;
  script: HTMLScriptElement | null;
  /** The level of a step's heading: one under the form's title. */
  headingLevel: number;
}

/**
 * The beacons of a page load that shows the form (docs/analytics.md#the-funnel):
 * without a body, so no preflight and nothing about the visitor. A view on
 * load; `started` at the first answer; `reached=n` at the first arrival on
 * the form's page n (from 2).
 */
function beacon(base: URL, key: string, reached?: string) {
  const query = reached === undefined ? '' : `?reached=${reached}`;
  navigator.sendBeacon?.(new URL(`f/${encodeURIComponent(key)}/views${query}`, base));
}

/** One `started` beacon, at the person's first answer. */
function countStart(element: HTMLFormElement, base: URL, key: string) {
  const started = (event: Event) => {
    if (!event.isTrusted) return;
    element.removeEventListener('input', started);
    element.removeEventListener('change', started);
    beacon(base, key, 'started');
  };
  element.addEventListener('input', started);
  element.addEventListener('change', started);
}

/**
 * Prefill, then the form's logic when it has any: `check` checks a step's
 * fields. Returns the steps (undefined for a form without logic).
 */
function applyLogic(
  element: HTMLFormElement,
  form: PublicForm,
  place: Place,
  check: (fields: FieldDefinition[]) => boolean,
): Steps | undefined {
  prefill(
    element,
    form.fields,
    prefillSource(place.script, window.location.search, form.fields, element),
  );
  if (!hasLogic(form)) return undefined;
  return formSteps({
    element,
    form,
    check,
    headingLevel: place.headingLevel,
    onReached: (page) => beacon(place.base, form.key, String(page)),
  });
}

/**
 * The fields the visitor can answer: a hidden field's value comes from the address or the
 * site, so one missing (even required) never blocks sending; the server marks it instead.
 */
const visitorAnswered = (fields: readonly FieldDefinition[]) =>
  fields.filter((field) => field.type !== 'hidden');

/** Takes over a drawn form: checks in place, posts with fetch, shows the outcome in place. */
export function enhance(
  root: Root,
  element: HTMLFormElement,
  form: PublicForm,
  postUrl: string,
  place: Place,
) {
  const shownAt = performance.now();
  let uploaded = new WeakMap<File, string>();
  element.noValidate = true;
  const button = element.querySelector<HTMLButtonElement>('button[type=submit]');
  const keys = postKeys();
  const steps = applyLogic(element, form, place, (fields) => {
    clearErrors(root, form);
    const { data, files } = collect(element);
    const problems = checkAnswers(visitorAnswered(fields), data, files);
    // A step that passes clears the count a refused Next left by the button.
    if (problems.length === 0) {
      setStatus(root, '', false);
      return true;
    }
    setStatus(root, fewer(showProblems(root, form, problems)), true);
    return false;
  });
  countStart(element, place.base, form.key);

  // A corrected answer clears its message as soon as it passes, while typing: on `change`
  // (fired on blur) the layout would shift under the pointer heading for the button.
  element.addEventListener('input', (event) => {
    const name = (event.target as HTMLInputElement | null)?.name;
    // Required as the walk says now (a `requiredIf`), when the form has logic.
    const field = (steps?.askedFields() ?? form.fields).find((candidate) => candidate.id === name);
    const error = field && byId(root, ids.error(field.id));
    if (!field || !error || error.textContent === '') return;
    const { data, files } = collect(element);
    if (checkAnswers([field], data, files).length === 0) {
      error.textContent = '';
      for (const control of controlsOf(root, field.id)) control.removeAttribute('aria-invalid');
    }
  });

  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button?.disabled) return;
    // Enter on a step before the last moves on, as Next does.
    if (steps && !steps.atLastStep()) return steps.next();
    clearErrors(root, form);
    clearPostRefusal(root);
    const { values, data, files } = collect(element);
    // Only what the walk asks, required as it says: a question on a branch not taken never blocks.
    const problems = checkAnswers(
      visitorAnswered(steps ? steps.askedFields() : form.fields),
      data,
      files,
    );
    if (problems.length > 0) {
      steps?.showStepOf(problems[0]!.fieldId);
      setStatus(root, fewer(showProblems(root, form, problems)), true);
      return;
    }
    if (button) button.disabled = true;
    setStatus(root, 'Sending…', false);
    try {
      // Files go straight to storage; the post names them (never multipart).
      const uploads = form.multipart ? await uploadFiles(root, element, postUrl, uploaded) : [];
      // A post sooner than the fill-time minimum after drawing would be taken for a bot.
      const wait = (form.minFillMs ?? MIN_FILL_MS) + 250 - (performance.now() - shownAt);
      if (wait > 0) await sleep(wait);
      const answers: Record<string, unknown> = Object.fromEntries(
        [...values].map(([name, list]) => [name, list.length === 1 ? list[0] : list]),
      );
      if (uploads.length > 0) answers._uploads = uploads;
      const body = JSON.stringify(answers);
      const response = await fetch(postUrl, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'idempotency-key': keys.keyFor(body),
        },
        body,
        credentials: 'omit',
      });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (response.ok && answer.ok !== false) {
        keys.done();
        if (form.redirectUrl) {
          window.location.assign(form.redirectUrl);
          return;
        }
        element.hidden = true;
        const success = byId(root, ids.success);
        if (success) {
          if (answer.pending) {
            // Sent to the inbox, never told whether an email went (docs/submit.md#confirm-by-email).
            const title = success.querySelector('.fs-success-title');
            const message = success.querySelector('.fs-message');
            if (title) title.textContent = 'Check your inbox';
            if (message) message.textContent = CHECK_YOUR_INBOX;
          }
          success.hidden = false;
          success.setAttribute('role', 'status');
          success.focus();
        }
        return;
      }
      // An upload the endpoint no longer finds (expired, already used) is sent again next time.
      if (answer.error?.startsWith('upload_')) uploaded = new WeakMap();
      const serverProblems = problemsIn(answer);
      if (serverProblems[0]) steps?.showStepOf(serverProblems[0].fieldId);
      const shown = serverProblems.length > 0 ? showProblems(root, form, serverProblems) : 0;
      if (shown > 0) setStatus(root, fewer(shown), true);
      else
        showPostRefusal(root, answer.message ?? `The form could not be sent (${response.status}).`);
    } catch (error) {
      if (error instanceof UploadRefused) return showFileRefusal(root, error);
      setStatus(root, 'The form could not be sent: check your connection and try again.', true);
    } finally {
      if (button) button.disabled = false;
    }
  });
}

/** Turnstile's widget in a shadow root: rendered explicitly, its token copied into the form. */
function renderCaptcha(root: ShadowRoot, element: HTMLFormElement) {
  const box = root.querySelector<HTMLElement>('.cf-turnstile');
  if (!box) return;
  const token = document.createElement('input');
  token.type = 'hidden';
  token.name = 'cf-turnstile-response';
  element.append(token);
  type Turnstile = { render: (el: HTMLElement, options: Record<string, unknown>) => void };
  const render = () =>
    (window as unknown as { turnstile: Turnstile }).turnstile.render(box, {
      sitekey: box.dataset.sitekey,
      'response-field': false,
      callback: (value: string) => {
        token.value = value;
      },
    });
  if ((window as unknown as { turnstile?: Turnstile }).turnstile) return render();
  const script = document.createElement('script');
  script.src = TURNSTILE_SCRIPT;
  script.async = true;
  script.addEventListener('load', render);
  document.head.append(script);
}

/** The form's public settings (`f/KEY/form.json`), or a failure in words. */
async function publicForm(base: URL, key: string): Promise<PublicForm> {
  const response = await fetch(new URL(`f/${encodeURIComponent(key)}/form.json`, base), {
    credentials: 'omit',
  });
  const answer = (await response.json()) as PublicForm & Answer;
  if (!response.ok) throw new Error(answer.message ?? `status ${response.status}`);
  return answer;
}

/** The embed: fetch the public form, draw it in a shadow root next to the script tag. */
async function embed(script: HTMLScriptElement, key: string) {
  const base = new URL('.', script.src);
  const host = document.createElement('div');
  host.className = 'form-service-embed';
  const target = script.dataset.target ? document.querySelector(script.dataset.target) : null;
  if (target) target.append(host);
  else if (script.parentElement && script.parentElement !== document.head) script.before(host);
  else document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  root.adoptedStyleSheets = [sheet];
  let form: PublicForm;
  try {
    form = await publicForm(base, key);
  } catch (error) {
    sheet.replaceSync(formCss({ theme: 'auto', accent: null }, ':host'));
    root.innerHTML = `<div class="fs"><p class="fs-closed" role="alert"></p></div>`;
    root.querySelector('p')!.textContent =
      `This form could not be loaded: ${(error as Error).message}`;
    return;
  }
  sheet.replaceSync(formCss(form, ':host'));
  const postUrl = new URL(`s/${encodeURIComponent(form.key)}`, base).href;
  root.innerHTML = formMarkup(form, { action: postUrl, headingLevel: 2 });
  const element = root.querySelector('form');
  if (!element) return;
  if (form.captchaSiteKey) renderCaptcha(root, element);
  enhance(root, element, form, postUrl, { base, script, headingLevel: 3 });
  beacon(base, form.key);
}

function start() {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return;
  if (script.dataset.page !== undefined) {
    const data = document.getElementById('fs-data')?.textContent;
    const element = document.querySelector<HTMLFormElement>('form.fs-form');
    if (!data || !element) return;
    const form = JSON.parse(data) as PublicForm;
    const base = new URL('.', script.src);
    enhance(document, element, form, element.action, { base, script, headingLevel: 2 });
    beacon(base, form.key);
    return;
  }
  if (script.dataset.logic) return void pastedForm(script, script.dataset.logic);
  const key = script.dataset.form;
  if (key) void embed(script, key);
}

/**
 * The pasted HTML form's script (`data-logic="KEY"`, placed after the form):
 * the form's logic added to the HTML as pasted. The form is the one posting
 * to this service's `s/KEY`. Its checks stay the browser's own (`required`
 * as the walk says, `reportValidity` on Next) and so does its post; a step
 * before the last turns the post (Enter, or the button) into Next. Without
 * this script, or when the form cannot be read (a website the form does not
 * allow), the pasted form stays one long page and the server's walk keeps
 * the stored answers right. Its views are the pasted form's own to count.
 */
async function pastedForm(script: HTMLScriptElement, key: string) {
  const base = new URL('.', script.src);
  const action = new URL(`s/${encodeURIComponent(key)}`, base).href;
  const element = [...document.querySelectorAll('form')].find((each) => each.action === action);
  if (!element) return;
  let form: PublicForm;
  try {
    form = await publicForm(base, key);
  } catch {
    return;
  }
  if (form.closedMessage !== null) return;
  const steps = applyLogic(element, form, { base, script, headingLevel: 2 }, (fields) => {
    for (const field of fields) {
      const controls = [...element.elements].filter(
        (control) => (control as HTMLInputElement).name === field.id,
      ) as HTMLInputElement[];
      const refused = controls.find((control) => !control.disabled && !control.checkValidity());
      if (refused) {
        refused.reportValidity();
        return false;
      }
    }
    return true;
  });
  countStart(element, base, form.key);
  if (!steps) return;
  element.addEventListener('submit', (event) => {
    if (steps.atLastStep()) return;
    event.preventDefault();
    steps.next();
  });
  // A refused answer on a step out of sight (the browser checks every step on sending): show it.
  element.addEventListener(
    'invalid',
    (event) => steps.showStepOf((event.target as HTMLInputElement).name),
    true,
  );
}

start();
