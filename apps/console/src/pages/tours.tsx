import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { PageHeader } from '../components/page';
import { formatMoney } from '../format';
import { canWrite } from '../permissions';
import { useTours } from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

/** The catalog: each tour with its prices and whether guests can book it. */
export function ToursPage() {
  const { workspaceId, role } = useWorkspace();
  const tours = useTours();
  return (
    <>
      <PageHeader title="Tours">
        {canWrite(role, 'tours') && (
          <Link className="button button-primary" to={`/${workspaceId}/tours/new`}>
            New tour
          </Link>
        )}
      </PageHeader>
      <ErrorNotice error={tours.error} />
      {tours.isPending ? (
        <Loading what="Loading tours" />
      ) : !tours.data?.length ? (
        <Empty>No tours yet.</Empty>
      ) : (
        <ul className="cards">
          {tours.data.map((tour) => (
            <li key={tour.id} className="card">
              <h2 className="card-title">
                <Link to={`/${workspaceId}/tours/${tour.id}`}>{tour.name}</Link>
              </h2>
              <p>
                {tour.isPublic ? <Badge value="PUBLISHED" /> : <Badge value="DRAFT" />} {tour.durationMinutes}{' '}
                min · {tour.capacity} seats · {tour.timeZone}
              </p>
              <p className="muted">
                {tour.ticketTypes.length
                  ? tour.ticketTypes
                      .map((t) => `${t.name} ${formatMoney(t.price, tour.currency)}`)
                      .join(' · ')
                  : `${formatMoney(tour.basePrice, tour.currency)} a seat`}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
