/**
 * dynalite's `checkTypes` (validations/index.js), which turns a request's JSON into the shapes its actions
 * read and answers the service's SerializationException for a wrong one, with the same steps and messages.
 * dynalite's own walks every attribute value of a request through a regular expression and builds a
 * description of AttributeValue for each one afresh: about a sixth of the emulator's time on an import's
 * hundred thousand months. Here each type description is read once and remembered.
 */

type TypeSpec = string | { type?: string; children?: unknown; [rule: string]: unknown };
type Types = Record<string, TypeSpec>;

interface ReadType {
  type: string;
  subtype: string | undefined;
  children: unknown;
}

const ATTRIBUTE_VALUE_CHILDREN = {
  S: 'String',
  B: 'Blob',
  N: 'String',
  BOOL: 'Boolean',
  NULL: 'Boolean',
  BS: { type: 'List', children: 'Blob' },
  NS: { type: 'List', children: 'String' },
  SS: { type: 'List', children: 'String' },
  L: { type: 'List', children: 'AttrStruct<ValueStruct>' },
  M: { type: 'Map<AttributeValue>', children: 'AttrStruct<ValueStruct>' },
};

const readObjects = new WeakMap<object, ReadType>();
const readStrings = new Map<string, ReadType>();
/** AttrStruct<X> stands for X<AttributeValue> with AttributeValue's fields, one description per X. */
const attrStructs = new Map<string, { type: string; children: typeof ATTRIBUTE_VALUE_CHILDREN }>();

function readType(spec: TypeSpec): ReadType {
  const known = typeof spec === 'string' ? readStrings.get(spec) : readObjects.get(spec);
  if (known) return known;
  let children = (spec as { children?: unknown }).children;
  if (typeof children === 'string') children = { type: children };
  let type = spec as string;
  if ((spec as { type?: string }).type) type = (spec as { type: string }).type;
  const match = type.match(/(.+?)<(.+)>$/);
  const read: ReadType = match
    ? { type: match[1] as string, subtype: match[2], children }
    : { type, subtype: undefined, children };
  if (typeof spec === 'string') readStrings.set(spec, read);
  else readObjects.set(spec, read);
  return read;
}

function typeError(msg: string) {
  const err = new Error(msg) as Error & { statusCode: number; body: unknown };
  err.statusCode = 400;
  err.body = { __type: 'com.amazon.coral.service#SerializationException', Message: msg };
  return err;
}

const PARAMETERIZED =
  "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base of loader 'bootstrap')";

export function checkTypes(data: Record<string, unknown>, types: Types): Record<string, unknown> {
  for (const key in data) {
    if (!types[key] || data[key] == null) delete data[key];
  }
  const out: Record<string, unknown> = {};
  for (const key of keysOf(types)) {
    const given = data[key];
    if (given == null) continue;
    const val = checkType(given, types[key] as TypeSpec);
    if (val != null) out[key] = val;
  }
  return out;
}

/** dynalite's type descriptions are constants: each one's field names are listed once. */
const typeKeys = new WeakMap<object, string[]>();
function keysOf(types: Types): string[] {
  let keys = typeKeys.get(types);
  if (!keys) {
    keys = Object.keys(types);
    typeKeys.set(types, keys);
  }
  return keys;
}

function checkType(val: unknown, spec: TypeSpec): unknown {
  if (val == null) return null;
  const read = readType(spec);
  const { type, subtype } = read;
  const children = read.children as TypeSpec;
  if (type === 'AttrStruct') {
    const name = subtype as string;
    let expanded = attrStructs.get(name);
    if (!expanded) {
      expanded = { type: `${name}<AttributeValue>`, children: ATTRIBUTE_VALUE_CHILDREN };
      attrStructs.set(name, expanded);
    }
    return checkType(val, expanded);
  }
  switch (type) {
    case 'Boolean':
      switch (typeof val) {
        case 'number':
          throw typeError(
            `${val % 1 === 0 ? 'NUMBER_VALUE' : 'DECIMAL_VALUE'} cannot be converted to ${type}`,
          );
        case 'string': {
          const upper = val.toUpperCase();
          if (upper === 'TRUE' || upper === '1' || upper === 'YES') return true;
          if (upper === 'FALSE' || upper === '0' || upper === 'NO') return false;
          throw typeError('Unexpected token received from parser');
        }
        case 'object':
          if (Array.isArray(val)) throw typeError(`Unrecognized collection type class java.lang.${type}`);
          throw typeError('Start of structure or map found where not expected');
      }
      return val;
    case 'Short':
    case 'Integer':
    case 'Long':
    case 'Double':
      switch (typeof val) {
        case 'boolean':
          throw typeError(`${val ? 'TRUE_VALUE' : 'FALSE_VALUE'} cannot be converted to ${type}`);
        case 'number':
          return type !== 'Double' ? Math.floor(val) : val;
        case 'string':
          throw typeError(`STRING_VALUE cannot be converted to ${type}`);
        case 'object':
          if (Array.isArray(val)) throw typeError(`Unrecognized collection type class java.lang.${type}`);
          throw typeError('Start of structure or map found where not expected');
      }
      return val;
    case 'String':
      switch (typeof val) {
        case 'boolean':
          throw typeError(`${val ? 'TRUE_VALUE' : 'FALSE_VALUE'} cannot be converted to ${type}`);
        case 'number':
          throw typeError(
            `${val % 1 === 0 ? 'NUMBER_VALUE' : 'DECIMAL_VALUE'} cannot be converted to ${type}`,
          );
        case 'object':
          if (Array.isArray(val)) throw typeError(`Unrecognized collection type class java.lang.${type}`);
          throw typeError('Start of structure or map found where not expected');
      }
      return val;
    case 'Blob': {
      switch (typeof val) {
        case 'boolean':
        case 'number':
          throw typeError('only base-64-encoded strings are convertible to bytes');
        case 'object':
          if (Array.isArray(val)) throw typeError('Unrecognized collection type class java.nio.ByteBuffer');
          throw typeError('Start of structure or map found where not expected');
      }
      const text = val as string;
      if (text.length % 4)
        throw typeError(`Base64 encoded length is expected a multiple of 4 bytes but found: ${text.length}`);
      if (Buffer.from(text, 'base64').toString('base64') !== text)
        throw typeError('Invalid last non-pad Base64 character dectected');
      return val;
    }
    case 'List':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError('Unexpected field type');
        case 'object':
          if (!Array.isArray(val)) throw typeError('Start of structure or map found where not expected');
      }
      return (val as unknown[]).map((child) => checkType(child, children));
    case 'ParameterizedList':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError(PARAMETERIZED);
        case 'object':
          if (!Array.isArray(val)) throw typeError('Start of structure or map found where not expected');
      }
      return (val as unknown[]).map((child) => checkType(child, children));
    case 'ParameterizedMap':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError(PARAMETERIZED);
        case 'object':
          if (Array.isArray(val))
            throw typeError(
              'Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>',
            );
      }
      return mapOf(val as Record<string, unknown>, children);
    case 'Map':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError('Unexpected field type');
        case 'object':
          if (Array.isArray(val)) {
            const sub = subtype as string;
            throw typeError(
              `Unrecognized collection type java.util.Map<java.lang.String, ${sub.includes('.') ? sub : `com.amazonaws.dynamodb.v20120810.${sub}`}>`,
            );
          }
      }
      return mapOf(val as Record<string, unknown>, children);
    case 'ValueStruct':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError('Unexpected value type in payload');
        case 'object':
          if (Array.isArray(val))
            throw typeError(`Unrecognized collection type class com.amazonaws.dynamodb.v20120810.${subtype}`);
      }
      return checkTypes(val as Record<string, unknown>, children as unknown as Types);
    case 'FieldStruct':
      switch (typeof val) {
        case 'boolean':
        case 'number':
        case 'string':
          throw typeError('Unexpected field type');
        case 'object':
          if (Array.isArray(val))
            throw typeError(`Unrecognized collection type class com.amazonaws.dynamodb.v20120810.${subtype}`);
      }
      return checkTypes(val as Record<string, unknown>, children as unknown as Types);
    default:
      throw new Error(`Unknown type: ${type}`);
  }
}

function mapOf(val: Record<string, unknown>, children: TypeSpec) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(val)) out[key] = checkType(val[key], children);
  return out;
}
