import { paths } from '../paths.ts';
import { Link } from './link.tsx';

const PAGES = [
  { page: 'team', name: 'Overview', to: paths.team },
  { page: 'privacy', name: 'Privacy', to: paths.teamPrivacy },
] as const;

/** The team area's pages, the current one `aria-current="page"` (docs/dashboard.md#the-team-screen). */
export function TeamNav(props: { current: (typeof PAGES)[number]['page'] }) {
  return (
    <nav aria-label="Team" class="tabs team-tabs">
      {PAGES.map((each) => (
        <Link
          key={each.page}
          to={each.to()}
          aria-current={each.page === props.current ? 'page' : undefined}
        >
          {each.name}
        </Link>
      ))}
    </nav>
  );
}
