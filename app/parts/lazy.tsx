import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading, Problem } from './feedback.tsx';

/**
 * A screen whose code is a chunk of its own, fetched when first shown: the
 * inbox's first paint does not wait for what only a later screen needs.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  return function LazyScreen(props: P) {
    const [Screen, setScreen] = useState<ComponentType<P> | undefined>(() => loaded);
    const [error, setError] = useState<unknown>();
    useEffect(() => {
      if (Screen) return;
      load().then((component) => {
        loaded = component;
        setScreen(() => component);
      }, setError);
    }, []);
    if (error)
      return (
        <main id="main">
          <Problem error={error} />
        </main>
      );
    if (!Screen)
      return (
        <main id="main">
          <Loading />
        </main>
      );
    return <Screen {...props} />;
  };
}
