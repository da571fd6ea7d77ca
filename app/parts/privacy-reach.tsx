import type { Found } from './privacy-found.tsx';

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** What an erase deletes and what it does not reach, said before it is done (docs/privacy.md#what-erase-does-not-reach). */
export function EraseReach(props: { found: Found }) {
  const { counts } = props.found;
  const total = counts?.reduce((sum, form) => sum + form.count, 0);
  const what =
    counts && total
      ? `the ${plural(total, 'submission')} in ${plural(counts.length, 'form')} that hold the address`
      : "every submission of the team's forms that holds the address";
  return (
    <>
      <p>
        This deletes {what}, with their uploaded files, their webhook delivery records, their email
        records and their place in the address index. It cannot be undone.
      </p>
      <p>It does not reach:</p>
      <ul>
        <li>
          Copies sent already: what a webhook or another connected service received, notification
          emails in the team's mailboxes, the auto-reply in the sender's. Those are the receivers'
          to delete.
        </li>
        <li>Exports downloaded before, this screen's included.</li>
        <li>The summary's counts and this month's usage: numbers only.</li>
        <li>The audit trail, which names the address only by a code.</li>
        <li>The service's backups, until they age out after 35 days.</li>
        <li>
          A submission where the address is only part of a longer answer, or one stored before the
          address index and not yet indexed.
        </li>
      </ul>
    </>
  );
}
