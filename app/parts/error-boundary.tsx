import { Component, type ComponentChildren } from 'preact';
import { failureWords } from '../data.ts';
import { paths } from '../paths.ts';
import { ScreenCodeUnavailable } from './lazy.tsx';
import { BackLink } from './link.tsx';

interface Props {
  /** A new key (the path) clears a caught error: going elsewhere shows the screen there. */
  resetKey: string;
  /** The heading's level: 2 inside a form's workspace, whose form name is the page's h1. */
  level?: 1 | 2;
  children: ComponentChildren;
}

/**
 * A screen that throws while drawing (or whose code fails to load) is
 * replaced by what happened and a way on (try again, or back to the forms),
 * instead of a blank page; the header and a workspace's tabs stay.
 */
export class ErrorBoundary extends Component<Props, { error?: unknown }> {
  static override getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: Props) {
    if (previous.resetKey !== this.props.resetKey && this.state.error)
      this.setState({ error: undefined });
  }

  /** A screen whose code did not load needs the page loaded anew; any other is drawn again. */
  private tryAgain() {
    if (this.state.error instanceof ScreenCodeUnavailable) window.location.reload();
    else this.setState({ error: undefined });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const Heading = this.props.level === 2 ? 'h2' : 'h1';
    return (
      <main id="main">
        <div role="alert" class="problem">
          <Heading>This screen failed</Heading>
          <p>
            {this.state.error instanceof ScreenCodeUnavailable
              ? 'Its code could not be loaded: check the connection and try again.'
              : failureWords(this.state.error)}
          </p>
        </div>
        <p>
          <button type="button" onClick={() => this.tryAgain()}>
            Try again
          </button>
        </p>
        <BackLink to={paths.forms()}>Back to your forms</BackLink>
      </main>
    );
  }
}
