import * as v from 'valibot';
import { type ErrorDetail, validationError } from './errors.js';
import { fail, ok, type Result } from './result.js';

type AnySchema = v.GenericSchema;
type Issue = v.BaseIssue<unknown>;

/** Dotted path with array indices in brackets: `participants[0].name`. */
function fieldOf(issue: Issue, root: string): string {
  let field = root;
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') field += `[${key}]`;
    else field += field ? `.${String(key)}` : String(key);
  }
  return field;
}

const ISSUE_BY_TYPE: Record<string, string> = {
  min_length: 'too_short',
  max_length: 'too_long',
  min_value: 'out_of_range',
  max_value: 'out_of_range',
  integer: 'not_integer',
  email: 'invalid_email',
  uuid: 'invalid_uuid',
  picklist: 'invalid_enum',
  iso_date: 'invalid_date',
  iso_timestamp: 'invalid_date_time',
};

/** Our own checks (regex, check) carry their issue code as the message. */
const CUSTOM_MESSAGE = /^[a-z_]+$/;

function issueCode(issue: Issue): string {
  if (issue.kind === 'schema') {
    if (issue.type === 'strict_object' && issue.expected === 'never') return 'unknown_field';
    if (issue.input === undefined) return 'required';
    if (issue.type === 'picklist') return 'invalid_enum';
    return 'invalid_type';
  }
  if (CUSTOM_MESSAGE.test(issue.message)) return issue.message;
  return ISSUE_BY_TYPE[issue.type] ?? 'invalid_value';
}

function toErrorDetails(issues: readonly Issue[], root = ''): ErrorDetail[] {
  return issues.map((issue) => ({ field: fieldOf(issue, root) || root || 'body', issue: issueCode(issue) }));
}

/**
 * Validates input against a contract schema; every problem is reported, each with the
 * exact field and a stable issue code.
 */
export function parseInput<S extends AnySchema>(
  schema: S,
  input: unknown,
  root = '',
): Result<v.InferOutput<S>> {
  // valibot takes arrays for objects; a JSON body must be a real object.
  if (Array.isArray(input) && schema.type.endsWith('object')) {
    return fail(
      validationError('The request is invalid.', [{ field: root || 'body', issue: 'invalid_type' }]),
    );
  }
  const parsed = v.safeParse(schema, input, { abortEarly: false });
  if (parsed.success) return ok(parsed.output);
  return fail(validationError('The request is invalid.', toErrorDetails(parsed.issues, root)));
}
