import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api';
import { ErrorNotice, Loading } from '../components/feedback';
import { PageHeader, Section } from '../components/page';
import { ScheduleForm, Schedules } from '../components/schedules';
import { formatMoney } from '../format';
import { canWrite } from '../permissions';
import type { Tour } from '../queries';
import { useWorkspace } from '../workspace';
import { TourForm } from './tour/tour-form';

/** One tour: its details, ticket types and prices, cancellation policy, publishing and schedules. */
export function TourPage({ tourId }: { tourId: string }) {
  const { workspaceId, role } = useWorkspace();
  const isNew = tourId === 'new';
  const tour = useQuery({
    queryKey: [workspaceId, 'tour', tourId],
    enabled: !isNew,
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/tours/{tourId}', { params: { path: { workspaceId, tourId } } }),
        )
      ).data,
  });
  const editable = canWrite(role, 'tours');
  if (isNew)
    return editable ? (
      <TourForm key="new" />
    ) : (
      <>
        <PageHeader title="New tour" />
        <p>Only admins create tours.</p>
      </>
    );
  if (tour.isPending) return <Loading what="Loading the tour" />;
  if (tour.isError) return <ErrorNotice error={tour.error} />;
  return (
    <>
      {editable ? <TourForm key={tour.data.id} tour={tour.data} /> : <TourFacts tour={tour.data} />}
      <Section title="Schedules">
        {canWrite(role, 'departures') && <ScheduleForm tour={tour.data} />}
        <Schedules tour={tour.data} />
      </Section>
    </>
  );
}

const REFUNDS = { FULL: 'full refund', PARTIAL: 'part refunded', NONE: 'no refund' } as const;

/** The tour as a member who cannot change it sees it. */
function TourFacts({ tour }: { tour: Tour }) {
  const policy = tour.cancellationPolicy;
  return (
    <>
      <PageHeader title={tour.name} />
      {tour.description && <p>{tour.description}</p>}
      <dl className="facts">
        <div>
          <dt>Published</dt>
          <dd>{tour.isPublic ? 'Yes: guests can book it' : 'No'}</dd>
        </div>
        <div>
          <dt>Duration and seats</dt>
          <dd>
            {tour.durationMinutes} min · {tour.capacity} seats
          </dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>{tour.timeZone}</dd>
        </div>
        <div>
          <dt>Meeting point</dt>
          <dd>{tour.meetingPoint ?? 'told later'}</dd>
        </div>
        <div>
          <dt>Prices</dt>
          <dd>
            {tour.ticketTypes.length
              ? tour.ticketTypes.map((t) => `${t.name} ${formatMoney(t.price, tour.currency)}`).join(' · ')
              : `${formatMoney(tour.basePrice, tour.currency)} a seat`}
          </dd>
        </div>
        <div>
          <dt>Cancellation</dt>
          <dd>
            until {policy.cutoffHours} h before, {REFUNDS[policy.refund]}
            {policy.refund === 'PARTIAL' && ` (${policy.refundPercent} %)`}
          </dd>
        </div>
      </dl>
    </>
  );
}
