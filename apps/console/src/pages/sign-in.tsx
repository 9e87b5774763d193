import { type FormEvent, useState } from 'react';
import { ApiError } from '../api';
import { ErrorNotice } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader } from '../components/page';
import { useSecondFactor, useSignIn } from '../session';

/**
 * E-mail and password; the session lives in an HttpOnly cookie the page never sees. An
 * account with two-factor sign-in on is asked for a code of its app (or a recovery code) next.
 */
export function SignInPage({ notice }: { notice?: string | undefined }) {
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  if (signIn.data && 'twoFactorRequired' in signIn.data) return <SecondFactorForm onRestart={signIn.reset} />;
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

/** The second step: six digits of the authenticator app, or one recovery code. */
function SecondFactorForm({ onRestart }: { onRestart: () => void }) {
  const secondFactor = useSecondFactor();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    secondFactor.mutate(useRecovery ? { recoveryCode: value } : { code: value.replace(/\s/g, '') });
  };
  const wrong = secondFactor.error instanceof ApiError && secondFactor.error.status === 401;
  return (
    <main className="sign-in" id="main">
      <form className="card" onSubmit={submit} aria-labelledby="second-factor-title">
        <p className="brand">TravelOps</p>
        <div id="second-factor-title">
          <PageHeader title="Two-factor sign-in" />
        </div>
        <p>
          {useRecovery
            ? 'Type one of your recovery codes. Each works once.'
            : 'Type the six-digit code your authenticator app shows for TravelOps.'}
        </p>
        {wrong ? (
          <p className="notice notice-error" role="alert">
            {secondFactor.error?.message}
          </p>
        ) : (
          <ErrorNotice error={secondFactor.error} />
        )}
        <TextField
          label={useRecovery ? 'Recovery code' : 'Code'}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          required
          value={value}
          onChange={(event) => setValue(event.target.value)}
          field={useRecovery ? 'recoveryCode' : 'code'}
          error={secondFactor.error}
        />
        <button type="submit" className="button-primary" disabled={secondFactor.isPending}>
          {secondFactor.isPending ? 'Checking…' : 'Sign in'}
        </button>
        <p className="button-row">
          <button
            type="button"
            className="button-quiet"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setValue('');
              secondFactor.reset();
            }}
          >
            {useRecovery ? 'Use a code of the app' : 'Use a recovery code'}
          </button>
          <button type="button" className="button-quiet" onClick={onRestart}>
            Start again
          </button>
        </p>
      </form>
    </main>
  );
}
