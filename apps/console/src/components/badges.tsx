const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ');

/** A status in words, coloured by what it means (sold out, cancelled, paid...). */
export function Badge({ value, label }: { value: string; label?: string }) {
  return (
    <span className={`badge badge-${value.toLowerCase().replaceAll('_', '-')}`}>
      {label && <span className="visually-hidden">{label}: </span>}
      {words(value)}
    </span>
  );
}
