import { Ajv, type Options, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

type SchemaCompiler = (route: { schema: object; httpPart?: string }) => (data: unknown) => unknown;

// A CommonJS module: under NodeNext its default import is module.exports, which carries the plugin as .default.
const addFormats = ajvFormats.default;

/**
 * Fastify's own Ajv defaults, except that unknown properties are reported rather than removed, and that schemas are
 * not checked against the JSON Schema meta-schema: ours are TypeBox's, and each Ajv compiled the meta-schema once
 * (25-40 ms an instance on an idle machine, four instances in a controller). Strict mode still refuses unknown keywords.
 */
const baseOptions: Options = {
  useDefaults: true,
  removeAdditional: false,
  addUsedSchema: false,
  allErrors: false,
  validateSchema: false,
};

/** An Ajv for JSON documents (bodies, tool inputs): defaults applied, types never coerced. */
export const createJsonAjv = (): Ajv => addFormats(new Ajv({ ...baseOptions, coerceTypes: false }));

/**
 * Validators for route schemas. Query strings, params and headers arrive as
 * text, so they are coerced (`?page=2`, `?pinned=true`); a JSON body already
 * has types, so it is not: `{"label": 123}` is a wrong type, not the label "123".
 */
export function buildRequestValidator(externalSchemas: Record<string, object> = {}): SchemaCompiler {
  const create = (coerceTypes: Options['coerceTypes']) => {
    const ajv = addFormats(new Ajv({ ...baseOptions, coerceTypes }));
    for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema);
    return ajv;
  };
  const coercing = create('array');
  const strict = create(false);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const id = (schema as { $id?: string }).$id;
    const validate = (id !== undefined ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
    return httpPart === 'body' ? validate : finiteOnly(validate);
  };
}

/**
 * Coercion turns `?days=Infinity` (or `1e309`) into Infinity, which Ajv lets
 * through integer and maximum checks; a non-finite number is refused here.
 */
function finiteOnly(validate: ValidateFunction): (data: unknown) => boolean {
  const wrapped = (data: unknown): boolean => {
    const valid = validate(data) as boolean;
    wrapped.errors = validate.errors;
    if (!valid || typeof data !== 'object' || data === null) return valid;
    for (const [key, value] of Object.entries(data)) {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        wrapped.errors = [{ instancePath: `/${key}`, schemaPath: '#', keyword: 'finite', params: {}, message: 'must be a finite number' }];
        return false;
      }
    }
    return true;
  };
  wrapped.errors = null as ValidateFunction['errors'];
  return wrapped;
}
