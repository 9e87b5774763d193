import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { RouteDefinition } from './route.js';

/** The methods routes are grouped by; any other (OPTIONS) walks every route, as Express does. */
const GROUPED = new Set(['get', 'post', 'patch', 'delete']);

/**
 * What every route that can match a path shares: the method, the first segment (static in
 * every route of the table) and the number of segments (no route has optional or repeated
 * segments). Matching is case-insensitive and ignores one trailing slash, as Express's is.
 */
function shapeOf(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  let segments = 0;
  for (let i = 0; i < trimmed.length; i++) if (trimmed.charCodeAt(i) === 47) segments++;
  const second = trimmed.indexOf('/', 1);
  const first = (second === -1 ? trimmed.slice(1) : trimmed.slice(1, second)).toLowerCase();
  return `${method} ${segments} ${first}`;
}

/**
 * The route table as Express routers, one per shape: a request walks only the few routes
 * that could match it (in the table's order, so the first match wins as before), not the
 * whole table. `register` adds one route to a router.
 */
export function routeDispatcher(
  routes: readonly RouteDefinition[],
  register: (router: Router, route: RouteDefinition) => void,
): RequestHandler {
  const everyRoute = express.Router();
  const byShape = new Map<string, Router>();
  for (const route of routes) {
    register(everyRoute, route);
    const shape = shapeOf(route.method, route.path);
    let group = byShape.get(shape);
    if (!group) {
      group = express.Router();
      byShape.set(shape, group);
    }
    register(group, route);
  }
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
    if (!GROUPED.has(method)) return everyRoute(req, res, next);
    const group = byShape.get(shapeOf(method, req.path));
    if (group) return group(req, res, next);
    next();
  };
  // Whoever walks the app's layers (the route-coverage test) sees every route, as on one router.
  return Object.assign(dispatch, { stack: everyRoute.stack });
}
