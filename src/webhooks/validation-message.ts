/** The fields of a JSON-schema validation error this module reads (Ajv and typebox share them). */
export interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

/**
 * One readable sentence out of a list of schema errors, such as
 * `payload.repo.type must be one of "model", "dataset", "space"; payload.webhook is required`.
 * A union that fails reports every branch and then an `anyOf`; only the
 * `anyOf` line, the one about the field itself, is kept, unless errors deeper
 * in the field say what is wrong.
 */
export function describeSchemaErrors(errors: readonly SchemaError[], root = 'payload'): string {
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  // A nullable object (`X | null`) that fails inside is explained by the errors inside it, not by "must be null".
  const explainedInside = (path: string): boolean => errors.some((e) => e.instancePath.startsWith(`${path}/`));
  const lines = errors
    .filter((e) => (e.keyword === 'anyOf' ? !explainedInside(e.instancePath) : !unionPaths.has(e.instancePath)))
    .map((e) => describeOne(e, root, errors));
  return [...new Set(lines)].join('; ');
}

function describeOne(error: SchemaError, root: string, all: readonly SchemaError[]): string {
  const at = root + error.instancePath.split('/').slice(1).map(unescapePointer).map(toAccessor).join('');
  switch (error.keyword) {
    case 'required':
      return requiredNames(error.params)
        .map((name) => `${at}${toAccessor(name)} is required`)
        .join('; ');
    case 'enum':
      return `${at} must be one of ${listValues(error.params.allowedValues)}`;
    case 'const':
      return `${at} must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'anyOf':
      return `${at} must be ${branchTypes(error.instancePath, all)}`;
    default:
      return `${at} ${error.message}`;
  }
}

function branchTypes(path: string, all: readonly SchemaError[]): string {
  const types = all.filter((e) => e.instancePath === path && e.keyword === 'type').map((e) => String(e.params.type));
  return types.length > 0 ? types.join(' or ') : 'one of the allowed shapes';
}

function requiredNames(params: Record<string, unknown>): string[] {
  const names = params.requiredProperties ?? params.missingProperty;
  return (Array.isArray(names) ? names : [names]).map(String);
}

function listValues(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(values);
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function toAccessor(segment: string): string {
  if (/^\d+$/.test(segment)) return `[${segment}]`;
  return /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}
