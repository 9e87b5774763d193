import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createUnitTestDeps } from './test-deps.js';

async function getWidget(script: string | undefined) {
  const server = createApp(createUnitTestDeps([], { widgetScript: script })).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/widget.js`);
  server.close();
  return res;
}

describe('/widget.js', () => {
  it('serves the script it was given, to any origin', async () => {
    const res = await getWidget('console.log("the widget");');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe('console.log("the widget");');
  });

  it('without one, is a 404 that says the widget is not configured', async () => {
    const res = await getWidget(undefined);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'The booking widget is not configured on this server.',
    });
  });
});
