/** Reading the OpenAPI document as plain JSON: each value is checked before it is used. */
export type JsonRecord = Readonly<Record<string, unknown>>;

export const recordOf = (value: unknown): JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : {};

export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

export const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/**
 * Follows a local `$ref` (`#/components/schemas/Booking`) through the document; the name is
 * the last segment of the pointer. A value without one comes back as it is.
 */
export function dereference(document: unknown, value: unknown): { value: JsonRecord; name?: string } {
  const ref = textOf(recordOf(value).$ref);
  if (!ref.startsWith('#/')) return { value: recordOf(value) };
  const segments = ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const target = segments.reduce<unknown>((node, segment) => recordOf(node)[segment], document);
  return { value: recordOf(target), name: segments.at(-1) as string };
}
