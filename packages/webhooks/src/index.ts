export * from './policy.js';
export {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  isValidSignature,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type SignatureHeader,
  sign,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult,
  verify,
} from './signature.js';
