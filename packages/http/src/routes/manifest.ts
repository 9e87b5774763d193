import { localDateTime } from '@travelops/domain/catalog';
import { DepartureManifestSchema, getDepartureManifest, manifestTable } from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { toCsv } from '../csv.js';
import { defineRoute, prefersMediaType } from '../route.js';
import { PathId } from './params.js';

const CSV = 'text/csv';

const CSV_EXAMPLE =
  '"bookingId","bookingStatus","paymentStatus","externalReference","customerName","customerEmail","customerPhone","participantId","participantName","ticketTypeId","ticketType","ageBand","waiverSigned","checkedInAt","dietaryNotes","accessibilityNotes","emergencyContact","bookingNotes","guestMessage"\r\n' +
  '"bkg_7Hq2...","CONFIRMED","PAID","","Ada Lovelace","ada@example.com","\'+44 20 7946 0000","ptc_K3v...","Ada Lovelace","tt_9Xa...","Adult","ADULT","true","","vegetarian","","Charles +44 20 7946 0001","",""\r\n';

export const manifestRoutes = [
  defineRoute({
    operationId: 'getDepartureManifest',
    method: 'get',
    path: '/workspaces/{workspaceId}/availability/{availabilityId}/manifest',
    summary: "A departure's manifest, for the guide (JSON or CSV)",
    description:
      "The departure (with its `salesStatus`), its tour, participants per ticket type (`counts`: every type the tour sells in its order, zero included, then types it no longer sells, named by id, and `Standard` for participants without a type), totals, and every booking not CANCELLED (holds included), oldest first, with its participants (name, ticket type, waiver, check-in, dietary and accessibility notes, emergency contact) and its customer's name, e-mail and phone. Check participants in with `POST /workspaces/{workspaceId}/bookings/{bookingId}/checkin` and their `participantIds`.\n\n**CSV.** With `Accept: text/csv` the same manifest comes as RFC 4180 text (`text/csv; charset=utf-8`, CRLF line ends, a header row, every cell quoted with its quotes doubled), one row per participant with its booking's and customer's columns, and `Content-Disposition: attachment; filename=\"manifest-<tour slug>-<local date>-<HHMM>.csv\"`. A cell that begins with `=`, `+`, `-` or `@` (their full-width forms too, even after white space), or with a tab or carriage return, gets a leading `'` (invisible format characters before them, Unicode Cf such as U+200B, count as nothing) so that a spreadsheet shows it as text and never runs it (OWASP CSV injection); a phone number `+44...` reads `'+44...`. JSON stays the default (no `Accept`, `*/*`, or neither type named); errors are always JSON.",
    tags: ['Availability'],
    access: { permission: 'read' },
    expensive: true,
    params: v.object({ workspaceId: PathId, availabilityId: PathId }),
    success: {
      status: 200,
      description: 'The manifest.',
      schema: DepartureManifestSchema,
      alternatives: [
        {
          mediaType: CSV,
          description: 'One row per participant under a header row (RFC 4180; formulas neutralised).',
          example: CSV_EXAMPLE,
        },
      ],
      headers: {
        'Content-Disposition':
          'CSV only: `attachment; filename="manifest-<tour slug>-<local date>-<HHMM>.csv"`.',
        Vary: '`Accept`: the same URL answers JSON or CSV.',
      },
    },
    errors: [404],
    async handle({ use, params, req }) {
      const manifest = await getDepartureManifest(use, params.workspaceId, params.availabilityId);
      if (!manifest.ok) return manifest;
      if (!prefersMediaType(req, CSV)) return ok({ data: manifest.value, headers: { Vary: 'Accept' } });
      const { tour, departure } = manifest.value;
      const local = localDateTime(departure.startsAt, tour.timeZone);
      const fileName = `manifest-${tour.slug}-${local.date}-${local.time.replace(':', '')}.csv`;
      return ok({
        contentType: `${CSV}; charset=utf-8`,
        body: toCsv(manifestTable(manifest.value)),
        headers: { 'Content-Disposition': `attachment; filename="${fileName}"`, Vary: 'Accept' },
      });
    },
  }),
];
