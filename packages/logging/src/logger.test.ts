import { describe, expect, it } from 'vitest';
import { coalescedStream, createJsonLogger, defaultLogFormat } from './logger.js';

function capture() {
  const lines: string[] = [];
  const logger = createJsonLogger({ write: (line) => lines.push(line) });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, logger, parsed };
}

describe('createJsonLogger', () => {
  it('writes one JSON line per entry: level, time, msg, then the fields', () => {
    const { lines, logger, parsed } = capture();
    logger.info({ job: 'expire-holds', released: 3 }, 'job done');
    logger.warn({ attempt: 2 });
    logger.error({}, 'boom');
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.endsWith('}\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    const [first, second, third] = parsed();
    expect(Object.keys(first ?? {})).toEqual(['level', 'time', 'msg', 'job', 'released']);
    expect(first).toMatchObject({ level: 'info', msg: 'job done', job: 'expire-holds', released: 3 });
    expect(first?.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(second).toMatchObject({ level: 'warn', attempt: 2 });
    expect(second).not.toHaveProperty('msg');
    expect(third).toMatchObject({ level: 'error', msg: 'boom' });
  });

  it('fields cannot overwrite level or time', () => {
    const { logger, parsed } = capture();
    logger.error({ level: 'info', time: 'yesterday' }, 'real');
    expect(parsed()[0]).toMatchObject({ level: 'error', msg: 'real' });
    expect(parsed()[0]?.time).not.toBe('yesterday');
  });

  it('serializes errors with name, message, stack, own properties and cause', () => {
    const { logger, parsed } = capture();
    const cause = new Error('socket closed');
    const error = Object.assign(new Error('query failed', { cause }), { code: '57P01' });
    logger.error({ err: error }, 'job failed');
    expect(parsed()[0]?.err).toMatchObject({
      name: 'Error',
      message: 'query failed',
      code: '57P01',
      stack: expect.stringContaining('query failed'),
      cause: { message: 'socket closed' },
    });
  });

  it('redacts credentials whatever their case or depth', () => {
    const { lines, logger } = capture();
    logger.info({
      headers: { Authorization: 'Bearer tops_secret1', cookie: 'sid=secret2' },
      password: 'secret3',
      nested: { token: 'secret4', Secret: 'secret5' },
      tokenId: 'tok_visible',
    });
    const line = lines[0] ?? '';
    expect(line).not.toMatch(/secret\d/);
    expect(line).toContain('[REDACTED]');
    expect(line).toContain('tok_visible');
  });

  it('never throws on unserializable fields', () => {
    const { logger, parsed } = capture();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => logger.info({ circular, big: 1n }, 'still logged')).not.toThrow();
    logger.info({ big: 12n });
    expect(parsed()[0]).toMatchObject({ level: 'info', msg: 'still logged', logError: expect.any(String) });
    expect(parsed()[1]).toMatchObject({ big: '12' });
  });
});

describe('LOG_LEVEL and LOG_FORMAT', () => {
  it('drops entries below the level', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) }, { level: 'warn' });
    logger.info({}, 'chatter');
    logger.warn({}, 'careful');
    logger.error({}, 'broken');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['careful', 'broken']);
  });

  it('pretty: one readable line with the same fields, still redacted', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) }, { format: 'pretty' });
    logger.info({ route: '/workspaces/:workspaceId/tours', status: 200, token: 'tops_secret' }, 'request');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request route=\/workspaces\/:workspaceId\/tours status=200 token=\[REDACTED\]\n$/,
    );
  });

  it('is pretty on a terminal and JSON elsewhere when LOG_FORMAT is unset', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');
  });
});

describe('coalescedStream', () => {
  it('hands the lines of one turn of the event loop to its target in one write, in order', async () => {
    const writes: string[] = [];
    const stream = coalescedStream({ write: (chunk: string) => writes.push(chunk) });
    const logger = createJsonLogger(stream);
    logger.info({ n: 1 }, 'first');
    logger.warn({ n: 2 }, 'second');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect((writes[0] as string).split('\n').map((line) => (line ? JSON.parse(line).msg : ''))).toEqual([
      'first',
      'second',
      '',
    ]);
    logger.info({}, 'later');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});
