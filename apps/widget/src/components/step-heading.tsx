import { useEffect, useRef } from 'preact/hooks';
import { strings } from '../strings.js';

interface StepHeadingProps {
  title: string;
  step: number;
  of: number;
  /** Moves keyboard and screen-reader focus here when the step appears (not on the page's first load). */
  focus: boolean;
}

/** The step's title, announced and focused when the guest arrives at it. */
export function StepHeading({ title, step, of, focus }: StepHeadingProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <>
      <h2 tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <p class="step">{strings.stepOf(step, of)}</p>
    </>
  );
}
