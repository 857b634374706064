// Writes src/config/schema-types.ts, the TypeScript types of a validated config, from
// schemas/forgeform.schema.json, so that the code is checked against the schema users are validated
// with and the two cannot drift apart. Covers the part of JSON Schema the config schema uses (type,
// const, enum, properties/required, additionalProperties, items, $ref); the conditions (if/then/else,
// not) and the string checks narrow values the types already allow.
//   node scripts/config-types.mjs          writes the file
//   node scripts/config-types.mjs --check  exits 1 when the committed file is not what the schema makes
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
export const TYPES_PATH = 'src/config/schema-types.ts';

/** Object schemas written inline in the schema that the code names, by JSON pointer. */
const NAMED_INLINE = { '': 'Config', '/properties/policy': 'Policy', '/properties/actions': 'ActionsConfig', '/definitions/repo/properties/create': 'RepoCreateConfig' };

/** A definition's type name: ssh_key → SshKeyConfig. */
const definitionName = (def) => `${def.replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase())}Config`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as a TypeScript literal, strings in single quotes as the code base writes them. */
const literal = (v) => (typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v));

/** A JSDoc comment from a schema's description, wrapped, at the given indentation. */
function doc(node, indent) {
  if (!node.description) return '';
  const words = node.description.replace(/\*\//g, '*\\/').split(/\s+/);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + 3 + line.length + 1 + w.length > 110) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

class Generator {
  constructor(schema) {
    this.schema = schema;
    /** Named types still to write, by name: [pointer, schema]. */
    this.named = new Map();
  }

  /** The type of a schema node at `pointer`, as an expression; named object schemas become references. */
  type(node, pointer, indent) {
    if (node.$ref) {
      const def = node.$ref.replace('#/definitions/', '');
      if (!this.schema.definitions?.[def]) throw new Error(`${pointer}: $ref ${node.$ref} resolves to nothing`);
      return definitionName(def);
    }
    // `if: {type: null}, else: X`: X, or null (a repository section's `name: null`, which drops an inherited object).
    if (node.if?.type === 'null' && node.else && node.then === undefined) return `${this.type(node.else, `${pointer}/else`, indent)} | null`;
    if (node.const !== undefined) return literal(node.const);
    if (node.enum) return node.enum.map(literal).join(' | ');
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes(undefined)) throw new Error(`${pointer}: no type, const, enum or $ref: the types cannot say what it holds`);
    return types.map((t) => this.single(t, node, pointer, indent)).join(' | ');
  }

  single(t, node, pointer, indent) {
    switch (t) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = this.type(node.items ?? {}, `${pointer}/items`, indent);
        return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
      }
      case 'object': {
        if (NAMED_INLINE[pointer] !== undefined && pointer !== '') return this.name(NAMED_INLINE[pointer], pointer, node);
        return this.object(node, pointer, indent);
      }
      default:
        throw new Error(`${pointer}: type ${t} has no TypeScript counterpart here`);
    }
  }

  name(name, pointer, node) {
    this.named.set(name, [pointer, node]);
    return name;
  }

  /** An object type: its properties (optional unless required), or a record of additionalProperties. */
  object(node, pointer, indent) {
    const props = Object.entries(node.properties ?? {});
    const extra = typeof node.additionalProperties === 'object' ? this.type(node.additionalProperties, `${pointer}/additionalProperties`, indent) : undefined;
    if (!props.length) return extra ? `Record<string, ${extra}>` : 'Record<string, never>';
    if (extra) throw new Error(`${pointer}: properties and additionalProperties together are not supported`);
    const inner = `${indent}  `;
    const required = new Set(node.required ?? []);
    const members = props.map(([key, value]) => {
      const name = IDENTIFIER.test(key) ? key : literal(key);
      return `${doc(value, inner)}${inner}${name}${required.has(key) ? '' : '?'}: ${this.type(value, `${pointer}/properties/${key}`, inner)};`;
    });
    return `{\n${members.join('\n')}\n${indent}}`;
  }

  /** One exported declaration per named schema: an interface for an object with properties, else a type. */
  declaration(name, pointer, node) {
    // A definition that is a value rather than an object (a collaborator's permission) is a type alias of it.
    const isObject = node.type === 'object' || node.properties !== undefined || node.additionalProperties !== undefined;
    const body = isObject ? this.object(node, pointer, '') : this.type(node, pointer, '');
    return `${doc(node, '')}${body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body};`}\n`;
  }

  source() {
    const out = [];
    out.push(this.declaration('Config', '', this.schema));
    for (const def of Object.keys(this.schema.definitions ?? {})) this.name(definitionName(def), `/definitions/${def}`, this.schema.definitions[def]);
    const written = new Set(['Config']);
    // Declarations add the names they reference: write until none is left.
    for (let left = [...this.named.keys()].filter((n) => !written.has(n)); left.length; left = [...this.named.keys()].filter((n) => !written.has(n))) {
      for (const name of left) {
        written.add(name);
        const [pointer, node] = this.named.get(name);
        out.push(this.declaration(name, pointer, node));
      }
    }
    return `// GENERATED by scripts/config-types.mjs from schemas/forgeform.schema.json: do not edit. Edit the\n// kinds' field definitions (src/kinds/*/fields.ts), schemas/parts/root.json, and run npm run schema.\n\n${out.join('\n')}`;
  }
}

export function configTypesSource(schemaText = readFileSync(new URL('schemas/forgeform.schema.json', root), 'utf8')) {
  return new Generator(JSON.parse(schemaText)).source();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = configTypesSource();
  const target = new URL(TYPES_PATH, root);
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error(`${TYPES_PATH} is not what the schema makes: run npm run schema`);
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
