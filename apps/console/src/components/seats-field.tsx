import { TextField } from './field';

/**
 * The seats of a departure, or of each departure a schedule makes (`capacity`). With the
 * tour's capacity it may be left empty, and says that the tour's then applies.
 */
export function SeatsField({
  value,
  onChange,
  error,
  tourCapacity,
}: {
  value: string;
  onChange: (value: string) => void;
  error: unknown;
  /** Given when empty means the tour's seats (a new departure or schedule). */
  tourCapacity?: number | undefined;
}) {
  return (
    <TextField
      label="Seats"
      hint={tourCapacity === undefined ? undefined : `Empty: the tour’s ${tourCapacity}.`}
      type="number"
      min={1}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      field="capacity"
      error={error}
    />
  );
}
