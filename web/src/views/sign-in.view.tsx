import { useState } from 'preact/hooks';
import { api, apiKey, ApiError, errorText } from '../api-client.js';
import { useDocumentTitle } from '../hooks.js';

/** Asks for the API key, checks it against the server and keeps it for this tab only. */
export function SignInView({ message, onSignedIn }: { message: string | undefined; onSignedIn: () => void }) {
  useDocumentTitle('Sign in');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) { setError('Enter the API key.'); return; }
    setBusy(true);
    setError(undefined);
    try {
      await api.verifyKey(candidate);
      apiKey.set(candidate);
      onSignedIn();
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? 'That key was not accepted.' : errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form class="panel sign-in-card" onSubmit={submit} aria-describedby="sign-in-help">
        <h1><img src="/favicon.svg" alt="" width="32" height="32" /> memsvc memory browser</h1>
        <p id="sign-in-help" class="muted">
          Sign in with the service's API key (<code>server.api_key</code>, or <code>data/api_key</code>).
          It is kept in this browser tab only and sent as a Bearer token.
        </p>
        {message && !error ? <p class="callout" role="status">{message}</p> : null}
        {error ? <p class="callout callout-error" role="alert">{error}</p> : null}
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="current-password" value={key} autoFocus
          onInput={(event) => setKey(event.currentTarget.value)} spellcheck={false} />
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Checking…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
