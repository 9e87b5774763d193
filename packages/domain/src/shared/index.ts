// The shared kernel's face: ids, money, enums, errors, results, validation and the ports every
// context uses (Clock, UnitOfWork, pages). Every context and adapter may use all of it.
export {
  AGE_BANDS,
  type AgeBand,
  AVAILABILITY_STATUSES,
  type DepartureStatus,
  BOOKING_STATUSES,
  type BookingStatus,
  PAYMENT_MODES,
  PAYMENT_STATUSES,
  type PaymentMode,
  type PaymentStatus,
  type Role,
  ROLES,
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
  rateLimitedError,
  unprocessable,
  validationError,
} from './errors.js';
export { hasIdPrefix, ID_PREFIXES, type IdKind, newId, randomBase62 } from './ids.js';
export { formatMoney, localMoneyFormat, minorUnitDigits, percentOf } from './money.js';
export type { Clock, DateRange, Keyset, Logger, Page, PageRequest, UnitOfWork } from './ports.js';
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
  requiredText,
  SlugSchema,
  text,
} from './schemas.js';
export { parseInput } from './validation.js';
