import { useEffect, useRef, useState } from 'react';

/** A secret the server shows once: readable, copyable, and gone when the operator says so. */
export function SecretOnce({
  title,
  secret,
  what,
  onDone,
}: {
  title: string;
  secret: string;
  what: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="secret-once" ref={box} tabIndex={-1} aria-label={title}>
      <p>
        <strong>{title}.</strong> Copy the secret now: it is shown this once and cannot be shown again.
      </p>
      <p className="secret">
        <code data-testid="secret">{secret}</code>
      </p>
      <p className="button-row">
        <button type="button" className="button-primary" onClick={copy}>
          Copy {what} secret
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
        <span role="status">
          {copied === 'yes' && 'Copied.'}
          {copied === 'failed' && 'The browser refused to copy: select the text and copy it.'}
        </span>
      </p>
    </section>
  );
}
