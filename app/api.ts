import {
  ApiError,
  type CallArgs,
  type CallResult,
  createClient,
  type RouteName,
} from '#client/client.ts';
import { BASE_PATH } from './base.ts';

export { ApiError };

/** The network failed or the service answered 5xx: worth a retry button. */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status >= 500 || error.status === 429;

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
/** Called when any request answers 401: the session ended. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** The typed client, same origin, with the session cookie. */
const client = createClient({
  baseUrl: BASE_PATH,
  credentials: 'same-origin',
  onError: (error, route) => {
    // A wrong sign-in code is a 401 too, but no session ended.
    if (error.status === 401 && route !== 'verifySignIn') {
      for (const listener of signedOutListeners) listener();
    }
  },
});

/** One call of the API by route name; its success answer's body. A refusal throws ApiError. */
export async function call<N extends RouteName>(
  name: N,
  ...input: CallArgs<N>
): Promise<CallResult<N>['body']> {
  return (await client.call(name, ...input)).body;
}
