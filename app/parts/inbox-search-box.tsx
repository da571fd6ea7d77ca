import { useEffect, useState } from 'preact/hooks';
import type { Folder } from '../model.ts';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';

/** The search of a form's answers: a search is a place (`?q=`), so it has a link and a back. */
export function SearchBox(props: { formId: string; folder: Folder; q: string }) {
  const [text, setText] = useState(props.q);
  useEffect(() => setText(props.q), [props.q]);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(paths.inbox(props.formId, { folder: props.folder, q: text.trim() }));
  };
  return (
    <search>
      <form class="search" onSubmit={submit}>
        <label for="search-answers">Search answers</label>
        <input
          id="search-answers"
          type="search"
          value={text}
          maxLength={200}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
