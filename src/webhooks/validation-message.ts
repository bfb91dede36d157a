import type { ErrorObject } from 'ajv';

/** The fields of an Ajv validation error this module reads (`parentSchema` with Ajv's `verbose` option). */
export type SchemaError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message' | 'parentSchema'>;

/** Problems named in one message; with all errors reported, a long wrong array would make a huge one. */
const MAX_LISTED = 8;

/**
 * One readable sentence out of a list of schema errors, such as
 * `payload.repo.type must be one of "model", "dataset", "space"; payload.webhook is required`,
 * naming at most {@link MAX_LISTED} problems and counting the others.
 */
export function describeSchemaErrors(errors: readonly SchemaError[], root = 'payload'): string {
  const lines = errors.slice(0, MAX_LISTED).map((e) => describeOne(e, root));
  const more = errors.length - lines.length;
  if (more > 0) lines.push(`and ${more} more ${more === 1 ? 'problem' : 'problems'}`);
  return lines.join('; ');
}

function describeOne(error: SchemaError, root: string): string {
  const at = root + error.instancePath.split('/').slice(1).map(unescapePointer).map(toAccessor).join('');
  switch (error.keyword) {
    case 'required':
      return `${at}${toAccessor(String(error.params.missingProperty))} is required`;
    case 'enum':
      return `${at} must be one of ${listValues(error.params.allowedValues)}`;
    case 'const':
      return `${at} must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'type':
      // `nullable: true` fields: Ajv's own message leaves out that null would do.
      return `${at} must be ${String(error.params.type)}${error.parentSchema?.nullable === true ? ' or null' : ''}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
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
