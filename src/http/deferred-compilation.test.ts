import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeferredCompilation } from './deferred-compilation.js';

/** A validator like Ajv's: true or false, with the reasons on its `errors`. */
function positiveValidator() {
  const validate = (data: unknown) => {
    validate.errors = typeof data === 'number' && data > 0 ? null : [{ message: 'must be positive' }];
    return validate.errors === null;
  };
  validate.errors = null as null | Array<{ message: string }>;
  return validate;
}

test('compiles at the first call, once, and hands on what the compiled function says and its errors', () => {
  const compilation = new DeferredCompilation();
  let compiles = 0;
  const validate = compilation.defer(() => { compiles += 1; return positiveValidator(); });
  assert.equal(compiles, 0, 'nothing compiled before it is used');
  assert.deepEqual(compilation.counts(), { compiled: 0, waiting: 1 });
  assert.equal(validate(-1), false);
  assert.deepEqual(validate.errors, [{ message: 'must be positive' }]);
  assert.equal(validate(2), true);
  assert.equal(validate.errors, null);
  assert.equal(compiles, 1);
  assert.deepEqual(compilation.counts(), { compiled: 1, waiting: 0 });
});

test('wrapFactory defers each compiler\'s work per route', () => {
  const compilation = new DeferredCompilation();
  const routes: string[] = [];
  const factory = (prefix: string) => (route: { url: string }) => { routes.push(route.url); return (data: unknown) => `${prefix}${String(data)}`; };
  const compilerOf = compilation.wrapFactory(factory)('>');
  const a = compilerOf({ url: '/a' });
  const b = compilerOf({ url: '/b' });
  assert.deepEqual(routes, []);
  assert.equal(b('x'), '>x');
  assert.deepEqual(routes, ['/b']);
  assert.equal(a('y'), '>y');
  assert.deepEqual(routes, ['/b', '/a']);
});

test('compileAll compiles what waits one per turn of the event loop, so other work runs between them', async () => {
  const compilation = new DeferredCompilation();
  const order: string[] = [];
  for (const name of ['a', 'b', 'c']) compilation.defer(() => { order.push(`compile ${name}`); return positiveValidator(); });
  const used = compilation.defer(() => { order.push('compile used'); return positiveValidator(); });
  used(1);
  setImmediate(() => order.push('other work'));
  assert.deepEqual(await compilation.compileAll(), []);
  assert.deepEqual(order, ['compile used', 'compile a', 'other work', 'compile b', 'compile c']);
  assert.deepEqual(compilation.counts(), { compiled: 4, waiting: 0 });
});

test('a schema that does not compile is reported by compileAll and fails again at its first use', async () => {
  const compilation = new DeferredCompilation();
  const broken = compilation.defer(() => { throw new Error('strict mode: unknown keyword: "colour"'); });
  compilation.defer(() => positiveValidator());
  const errors = await compilation.compileAll();
  assert.deepEqual(errors.map((error) => error.message), ['strict mode: unknown keyword: "colour"']);
  assert.throws(() => broken(1), /unknown keyword/);
  assert.deepEqual(compilation.counts(), { compiled: 1, waiting: 0 });
});

test('stopped, compileAll leaves the rest to their first use', async () => {
  const compilation = new DeferredCompilation();
  let compiles = 0;
  const validators = [1, 2, 3].map(() => compilation.defer(() => { compiles += 1; return positiveValidator(); }));
  compilation.stop();
  await compilation.compileAll();
  assert.equal(compiles, 0);
  assert.equal(validators[2]!(5), true);
  assert.equal(compiles, 1);
});
