import type { Tour, WidgetApi } from '../api.js';
import { fromPriceText, lowestPaid } from '../format.js';
import { type Cache, useResource } from '../resource.js';
import { strings } from '../strings.js';
import { FailureMessage } from './failure-message.js';

interface TourPickerProps {
  api: WidgetApi;
  cache: Cache;
  onChoose(tour: Tour): void;
}

/** The lowest price a paid seat of the tour is sold at, before any departure's own price. */
const lowestPrice = (tour: Tour) =>
  lowestPaid(tour.ticketTypes.length ? tour.ticketTypes.map((t) => t.price) : [tour.basePrice]);

const fromLabel = (price: string | null) => (price ? strings.fromPrice(price) : '');

/** The workspace's published tours, one button each. */
export function TourPicker({ api, cache, onChoose }: TourPickerProps) {
  const tours = useResource(cache, 'tours', api.listTours);
  if (tours.state === 'loading') return <p role="status">{strings.loading}</p>;
  if (tours.state === 'failed') return <FailureMessage failure={tours.failure} />;
  if (tours.data.length === 0) return <p>{strings.noTours}</p>;
  return (
    <ul class="choices">
      {tours.data.map((tour) => (
        <li key={tour.id}>
          <button type="button" class="choice" onClick={() => onChoose(tour)}>
            <span>
              <strong>{tour.name}</strong>
              <br />
              <span class="muted">{strings.minutes(tour.durationMinutes)}</span>
            </span>
            <span>{fromLabel(fromPriceText(lowestPrice(tour), tour.currency))}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
