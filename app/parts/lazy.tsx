import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading } from './feedback.tsx';

/**
 * A screen whose code is a chunk of its own, fetched when first shown or
 * when `preload` is called (a link to it pointed at): the inbox's first
 * paint does not wait for what only a later screen needs. A chunk that
 * fails to load is thrown to the error boundary as `ScreenCodeUnavailable`,
 * whose "Try again" loads the page anew: a browser keeps a module import that
 * failed for the page's life (Chromium 150 does, as the HTML standard says),
 * so asking for the same chunk again in the page fails again without a fetch.
 */
export class ScreenCodeUnavailable extends Error {
  constructor(cause: unknown) {
    super('The screen could not be loaded', { cause });
    this.name = 'ScreenCodeUnavailable';
  }
}

export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw new ScreenCodeUnavailable(error);
      },
    );
    return loading;
  };
  function LazyScreen(props: P) {
    const [Screen, setScreen] = useState<ComponentType<P> | undefined>(() => loaded);
    const [error, setError] = useState<unknown>();
    useEffect(() => {
      if (!Screen) preload().then((component) => setScreen(() => component), setError);
    }, [Screen]);
    if (error) throw error;
    if (!Screen)
      return (
        <main id="main">
          <Loading />
        </main>
      );
    return <Screen {...props} />;
  }
  return Object.assign(LazyScreen, { preload: () => void preload().catch(() => undefined) });
}
