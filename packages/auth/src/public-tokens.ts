import { randomBase62 } from '@travelops/domain/shared';

/** 32 base62 characters: about 190 bits, URL-safe, for guest booking and itinerary links. */
const PUBLIC_TOKEN_LENGTH = 32;

export function generatePublicToken(): string {
  return randomBase62(PUBLIC_TOKEN_LENGTH);
}
