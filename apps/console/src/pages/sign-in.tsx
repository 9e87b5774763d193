import { type FormEvent, useState } from 'react';
import { ApiError } from '../api';
import { ErrorNotice } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader } from '../components/page';
import { useSignIn } from '../session';

/** E-mail and password; the session lives in an HttpOnly cookie the page never sees. */
export function SignInPage({ notice }: { notice?: string | undefined }) {
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  const wrong = signIn.error instanceof ApiError && signIn.error.status === 401;
  return (
    <main className="sign-in" id="main">
      <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p className="brand">TravelOps</p>
        <div id="sign-in-title">
          <PageHeader title="Sign in" />
        </div>
        {notice && !signIn.isPending && !signIn.error && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
        {wrong ? (
          <p className="notice notice-error" role="alert">
            That e-mail and password do not match an account. Check both and try again.
          </p>
        ) : (
          <ErrorNotice error={signIn.error} />
        )}
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          field="email"
          error={signIn.error}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          field="password"
          error={signIn.error}
        />
        <button type="submit" className="button-primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
