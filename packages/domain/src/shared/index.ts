// The shared context's face: the shared kernel every context may use: ids, money, enums, errors, results, validation and ports.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export {
  type AvailabilityStatus,
  type BookingStatus,
  type PaymentMode,
  type PaymentStatus,
  type Role,
  TOKEN_ROLES,
  type TokenRole,
} from './enums.js';
export {
  conflict,
  type DomainError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetail,
  notFound,
  unprocessable,
  validationError,
} from './errors.js';
export { hasIdPrefix, ID_PREFIXES, newId, randomBase62 } from './ids.js';
export type { Clock, DateRange, Keyset, Page, PageRequest, UnitOfWork } from './ports.js';
export { fail, ok, type Result } from './result.js';
export {
  AmountSchema,
  CurrencySchema,
  CursorSchema,
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  DEFAULT_LIMIT,
  EmailSchema,
  LimitSchema,
  PageQuerySchema,
  type Pagination,
  PaginationSchema,
  PhoneSchema,
  SlugSchema,
  text,
} from './schemas.js';
export { parseInput } from './validation.js';
