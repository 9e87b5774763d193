import { type ReactNode, useEffect, useRef } from 'react';

let firstPage = true;

/**
 * The page's heading. On a page change (not the first load) focus moves to it, so a screen
 * reader announces the new page and the keyboard starts from its top.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · TravelOps`;
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, [title]);
  return (
    <div className="page-header">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** A titled part of a page. */
export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="section" aria-label={title}>
      <div className="section-header">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
