import { PageQuerySchema } from '@travelops/domain';
import * as v from 'valibot';

/** A path segment that may name a record; anything longer names nothing. */
export const PathId = v.pipe(v.string(), v.maxLength(100));

export const WorkspaceParams = v.object({ workspaceId: PathId });
export const PageQuery = PageQuerySchema;
