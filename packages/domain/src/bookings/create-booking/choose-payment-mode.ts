import type { PaymentMode } from '../../shared/enums.js';
import { unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingChannelPolicy } from '../channel-policy.js';

/** The booking's payment mode: the one asked for (CHECKOUT by default), if the channel allows it. */
export function choosePaymentMode(
  asked: PaymentMode | undefined,
  policy: Pick<BookingChannelPolicy, 'paymentModes'>,
): Result<PaymentMode> {
  const mode = asked ?? 'CHECKOUT';
  const { paymentModes } = policy;
  if (paymentModes && !paymentModes.allowed.includes(mode)) {
    return fail(unprocessable(paymentModes.refusal, 'paymentMode', 'not_allowed'));
  }
  return ok(mode);
}
