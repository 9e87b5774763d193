import { type FormEvent, useState } from 'react';
import { encode } from 'uqr';
import { ErrorNotice } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader } from '../components/page';
import { type Session, useTwoFactorSetup } from '../session';

/** The QR code of an `otpauth://` URL, drawn by React (one path of dark modules, a quiet zone of 4). */
function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { border: 0 });
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    });
  });
  const side = size + 8;
  return (
    <svg className="qr-code" viewBox={`0 0 ${side} ${side}`} role="img" aria-label={label}>
      <rect width={side} height={side} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

/**
 * Two-factor sign-in for the signed-in e-mail: turn it on (QR code, a code to confirm, the
 * recovery codes once) or off (a current code). `required`: a workspace asks it of this role.
 */
export function SecurityPage({ session, required }: { session: Session; required: boolean }) {
  const { enrol, confirm, disable } = useTwoFactorSetup();
  const [code, setCode] = useState('');
  const [stored, setStored] = useState(false);
  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.replace(/\s/g, ''), { onSuccess: () => setCode('') });
  };
  const onDisable = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(code.replace(/\s/g, ''), { onSuccess: () => setCode('') });
  };
  const recoveryCodes = confirm.data?.recoveryCodes;

  return (
    <section aria-labelledby="security-title">
      <div id="security-title">
        <PageHeader title="Two-factor sign-in" />
      </div>
      {required && !session.twoFactor.passed && (
        <p className="notice notice-info" role="status">
          This workspace asks your role for two-factor sign-in. Turn it on here (or, if it is on, sign out and
          sign in again with a code) to open the workspace.
        </p>
      )}
      {recoveryCodes && !stored ? (
        <div className="secret-once">
          <p>
            <strong>Two-factor sign-in is on.</strong> These recovery codes each sign you in once if you lose
            your phone. They are shown this once: store them somewhere safe.
          </p>
          <ul className="recovery-codes" data-testid="recovery-codes">
            {recoveryCodes.map((recovery) => (
              <li key={recovery}>
                <code>{recovery}</code>
              </li>
            ))}
          </ul>
          <p className="button-row">
            <button type="button" className="button-primary" onClick={() => setStored(true)}>
              I have stored them
            </button>
          </p>
        </div>
      ) : session.twoFactor.enabled ? (
        <form className="card" onSubmit={onDisable}>
          <p>
            Two-factor sign-in is <strong>on</strong> for {session.member.email}: every sign-in asks for a
            code of your authenticator app.
          </p>
          <ErrorNotice error={disable.error} />
          <TextField
            label="Current code, to turn it off"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
            field="code"
            error={disable.error}
          />
          <button type="submit" disabled={disable.isPending}>
            {disable.isPending ? 'Turning off…' : 'Turn off two-factor sign-in'}
          </button>
        </form>
      ) : enrol.data ? (
        <form className="card" onSubmit={onConfirm}>
          <p>
            Scan this code with an authenticator app (any app that follows RFC 6238), or type the key below
            into it, then type the six digits it shows.
          </p>
          <QrCode text={enrol.data.otpauthUrl} label="QR code of the two-factor secret" />
          <p>
            Key: <code data-testid="totp-secret">{enrol.data.secret}</code>
          </p>
          <ErrorNotice error={confirm.error} />
          <TextField
            label="Code from the app"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
            field="code"
            error={confirm.error}
          />
          <button type="submit" className="button-primary" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Turn on'}
          </button>
        </form>
      ) : (
        <div className="card">
          <p>
            Two-factor sign-in is <strong>off</strong>. With it on, a stolen password is not enough to sign in
            as {session.member.email}: each sign-in also asks for a code from your phone.
          </p>
          <ErrorNotice error={enrol.error} />
          <button
            type="button"
            className="button-primary"
            onClick={() => enrol.mutate()}
            disabled={enrol.isPending}
          >
            {enrol.isPending ? 'Preparing…' : 'Set up two-factor sign-in'}
          </button>
        </div>
      )}
    </section>
  );
}
