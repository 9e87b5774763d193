import type { ApiFailure } from '../api.js';
import { strings } from '../strings.js';

const { errors } = strings;

/** A detail's field in the guest's words: `participants[2].name` -> "Name of person 3". */
function fieldLabel(field: string): string {
  const participant = /^participants\[(\d+)\]/.exec(field);
  if (participant) return errors.participant(Number(participant[1]) + 1);
  return errors.byField[field] ?? errors.byField[field.split('.')[0] ?? ''] ?? field;
}

/** Every failure but a 409 and a 429 (which the booking step handles itself), in words. */
export function FailureMessage({ failure }: { failure: ApiFailure }) {
  if (failure.kind === 'invalid') {
    const lines = failure.details.map(
      (d) => errors.byIssue[d.issue] ?? errors.fieldProblem(fieldLabel(d.field)),
    );
    return (
      <div class="alert" role="alert">
        <p>{errors.invalid}</p>
        <ul>
          {[...new Set(lines)].map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    );
  }
  const text =
    failure.kind === 'conflict'
      ? errors.soldOut
      : failure.kind === 'rate_limited'
        ? errors.rateLimited(failure.retryAfterSeconds)
        : failure.kind === 'not_found'
          ? errors.notFound
          : failure.kind === 'network'
            ? errors.network
            : errors.server;
  return (
    <p class="alert" role="alert">
      {text}
    </p>
  );
}
