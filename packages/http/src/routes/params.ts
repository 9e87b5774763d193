import { PageQuerySchema, text } from '@travelops/domain/shared';
import * as v from 'valibot';

/** A path segment that may name a record; anything longer, or with NUL (PostgreSQL refuses it), names nothing. */
export const PathId = text(100);

export const WorkspaceParams = v.object({ workspaceId: PathId });
export const PageQuery = PageQuerySchema;
