import t from 'tap';
import { logProcessWarnings } from '../../src/runtime/process-warnings.js';
import { capturedLogger } from '../support/captured-logger.js';

t.test("process warnings become warn lines of the JSON log, and Node's own stderr printer is replaced", async (t) => {
  const before = process.listeners('warning');
  t.teardown(() => {
    process.removeAllListeners('warning');
    for (const listener of before) process.on('warning', listener);
  });
  const captured = capturedLogger();
  logProcessWarnings(captured.logger);
  t.equal(process.listeners('warning').length, 1, 'one listener: the log');
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
  t.teardown(() => {
    process.stderr.write = write;
  });
  process.emitWarning('65 abort listeners added to [AbortSignal]', 'MaxListenersExceededWarning');
  await new Promise((resolve) => setImmediate(resolve));
  process.stderr.write = write;
  t.same(written, [], 'nothing on stderr');
  t.match(captured.lines(), [
    { level: 40, msg: 'process warning: MaxListenersExceededWarning', warning: { message: /65 abort listeners/ } },
  ]);
});
