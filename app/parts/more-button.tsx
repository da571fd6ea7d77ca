import type { Action } from '../data.ts';

/**
 * The button under a paged list that reads its next page (the route's
 * `next` as `cursor`) and hands it over to be shown after the rows read.
 */
export function MoreButton<Page>(props: {
  label: string;
  next: string;
  action: Action;
  load: (cursor: string) => Promise<Page>;
  onPage: (page: Page) => void;
}) {
  const { action } = props;
  return (
    <button
      type="button"
      class="quiet"
      disabled={action.busy}
      onClick={async () => {
        const page = await action.run(() => props.load(props.next));
        if (page) props.onPage(page);
      }}
    >
      {props.label}
    </button>
  );
}
