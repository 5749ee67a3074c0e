// Strict input beside the schemas: the app's validator coerces types (querystrings need it: every
// value arrives as text), which would let a JSON body say "side": "1" or "qty": 0.5 and be read as
// something else. strictJsonBody() refuses those before validation (a JSON body's values must
// already have their declared JSON types), and installStrictQueryNumbers() holds query numbers
// to the wire grammar (no exponent, no leading zeros, no blank).
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  preValidationHookHandler,
} from 'fastify';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { STRICT_INTEGER } from './schemas.ts';

export interface FlatBodySchema {
  properties: Readonly<Record<string, object>>;
}

interface PropertyTypes {
  type?: string | readonly string[];
  anyOf?: ReadonlyArray<{ type?: string }>;
}

/** The JSON types a property declares: its `type` (one or a list) or the types of its `anyOf`. */
function declaredTypes(schema: object): readonly string[] | undefined {
  const p = schema as PropertyTypes;
  if (typeof p.type === 'string') return [p.type];
  if (Array.isArray(p.type)) return p.type;
  if (p.anyOf !== undefined && p.anyOf.every((a) => typeof a.type === 'string'))
    return p.anyOf.map((a) => a.type as string);
  return undefined;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

function jsonTypeOk(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      // JSON.parse reads 1e309 as Infinity and 1e300 as an integer; neither is one an API takes.
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * preValidation hook of a route whose body is a flat JSON object: refuses a non-JSON content
 * type (1006), a missing body (1002), a body that is not an object, and any value whose JSON
 * type differs from the schema's (1001), before the coercing validator sees it. Unknown fields
 * are left to the schema (1003).
 *
 * A callback hook, not an async one: it runs on every order placement, and an async hook
 * costs a promise and a microtask turn per request for a check that never waits.
 */
export function strictJsonBody(schema: FlatBodySchema): preValidationHookHandler {
  const typeError = bodyTypeChecker(schema.properties);
  let lastJsonType = 'application/json';
  function bodyError(req: FastifyRequest): ApiError | undefined {
    const body = req.body as unknown;
    const ctype = req.headers['content-type'];
    if (ctype === undefined && (body === undefined || body === null)) {
      return new ApiError(Errors.MISSING_PARAMETER, 'Missing request body: a JSON object is required');
    }
    // (every request of a client sends the same value: the last one accepted is kept)
    if (ctype !== lastJsonType && (typeof ctype !== 'string' || !JSON_CONTENT_TYPE.test(ctype))) {
      return new ApiError(
        Errors.UNSUPPORTED_MEDIA_TYPE,
        `${Errors.UNSUPPORTED_MEDIA_TYPE.message} (got ${JSON.stringify(String(ctype ?? ''))})`,
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return new ApiError(Errors.INVALID_PARAMETER, 'Invalid body: must be a JSON object');
    }
    lastJsonType = ctype as string;
    return typeError(body as Record<string, unknown>);
  }
  return Object.assign(syncHook(bodyError), { [STRICT_BODY]: true });
}

/** What a SyncCheck returns when it has answered the request itself (an auth refusal). */
export const ANSWERED = Symbol('answered');

/**
 * A preValidation check that never waits: the error to answer (through the error handler),
 * ANSWERED when it sent the answer itself, or undefined to let the request go on.
 */
export type SyncCheck = (req: FastifyRequest, reply: FastifyReply) => Error | undefined | typeof ANSWERED;

const SYNC_CHECK = Symbol('syncCheck');

/**
 * A callback preValidation hook made of a SyncCheck, and marked so that fusePreValidation can run
 * it inside one hook with the route's other checks. A callback hook, not an async one: these run
 * on every order placement, and an async hook costs a promise and a microtask turn per request
 * for a check that never waits.
 */
export function syncHook(check: SyncCheck): preValidationHookHandler {
  const hook = function syncCheckHook(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const r = check(req, reply);
    if (r !== ANSWERED) done(r);
  };
  return Object.assign(hook, { [SYNC_CHECK]: check });
}

/**
 * One pass for a route's checks: where every preValidation hook of a route is a syncHook (auth,
 * strict body, strict query numbers), they become one hook that runs them in the same order and
 * stops at the first refusal. Fastify pays a hook iteration and a callback per hook; the checks
 * themselves are the same. Call it after every other onRoute hook that adds preValidation hooks.
 */
export function fusePreValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const hooks = route.preValidation;
    if (!Array.isArray(hooks) || hooks.length < 2) return;
    const checks: SyncCheck[] = [];
    for (const h of hooks) {
      const c = (h as { [SYNC_CHECK]?: SyncCheck })[SYNC_CHECK];
      if (c === undefined) return;
      checks.push(c);
    }
    route.preValidation = syncHook((req, reply) => {
      for (let i = 0; i < checks.length; i++) {
        const r = checks[i](req, reply);
        if (r !== undefined) return r;
      }
      return undefined;
    });
  });
}

/** Marks the hooks strictJsonBody makes, so that app.ts's all-routes body check skips their routes. */
export const STRICT_BODY = Symbol('strictJsonBody');

/** The JSON type check of a flat body schema, built once per schema (see bodyTypeChecker). */
export type BodyTypeCheck = (body: Record<string, unknown>) => ApiError | undefined;

/**
 * The first value of a flat JSON object whose JSON type differs from its declared property's
 * (1001), or undefined: the coercing validator would otherwise read `"amount": 10` as "10".
 * The declared types are read from the schema once, here, not on every request (the check runs
 * on every order placement).
 */
export function bodyTypeChecker(props: FlatBodySchema['properties']): BodyTypeCheck {
  // Per declared key, its types and a test compiled from them (most keys declare one type), so
  // that a body that passes, the case on every order, costs a lookup and a typeof per key.
  const declared = new Map<
    string,
    { types: readonly string[]; ok: (v: unknown) => boolean; values: readonly unknown[] | undefined }
  >();
  // an array's items are checked too: the validator would coerce [10] to ["10"]
  const itemTypes = new Map<string, readonly string[]>();
  for (const key of Object.keys(props)) {
    const types = declaredTypes(props[key]);
    const values = (props[key] as { enum?: readonly unknown[] }).enum;
    if (types !== undefined) declared.set(key, { types, ok: typeTest(types), values });
    const items = (props[key] as { items?: unknown }).items;
    if (types?.includes('array') && typeof items === 'object' && items !== null) {
      const it = declaredTypes(items);
      if (it !== undefined) itemTypes.set(key, it);
    }
  }
  return (body) => {
    // (for-in: a parsed JSON object has only its own keys, and no array is made per request)
    for (const key in body) {
      const d = declared.get(key);
      if (d === undefined) continue;
      const types = d.types;
      const v = body[key];
      const ok = d.ok(v);
      const its = ok && Array.isArray(v) ? itemTypes.get(key) : undefined;
      if (its !== undefined) {
        const bad = (v as unknown[]).findIndex((x) => !its.some((t) => jsonTypeOk(x, t)));
        if (bad !== -1)
          return new ApiError(
            Errors.INVALID_PARAMETER,
            `Invalid body parameter '${key}': item ${bad} must be a JSON ${its.join(' or ')}`,
          );
      }
      if (ok) continue;
      if (typeof v === 'number' && types.some((t) => t === 'integer' || t === 'number')) {
        // an integer field: a fraction is no whole number; an integral value is too large
        const what = !types.includes('integer')
          ? 'a finite number'
          : Number.isInteger(v) || !Number.isFinite(v)
            ? 'a safe integer (|n| <= 2^53 - 1)'
            : 'a whole number (an integer such as 10)';
        return new ApiError(Errors.INVALID_PARAMETER, `Invalid body parameter '${key}': must be ${what}`);
      }
      return new ApiError(
        Errors.INVALID_PARAMETER,
        `Invalid body parameter '${key}': must be a JSON ${types.join(' or ')}${quoteHint(v, types, d.values)}`,
      );
    }
    return undefined;
  };
}

/** A plain decimal as JSON writes a number (at most 40 characters: the hint quotes it). */
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,19})(\.\d{1,19})?$/;

/**
 * What to send instead, when the value is the right one in the wrong JSON type: a number quoted
 * where a number belongs (an order record's id is a string, the amend body's order_id a JSON
 * integer), or a number unquoted where a decimal string belongs. A field with a list of values
 * (`enum`) names them instead when the value, retyped, is not one of them: `position_mode` 1 is
 * no `"1"` but `"hedge"` or `"one_way"`. Empty otherwise.
 */
function quoteHint(v: unknown, types: readonly string[], values?: readonly unknown[]): string {
  if (values !== undefined) {
    // (only a scalar is retyped: an object may have a toString that throws)
    const retyped = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    if (retyped === undefined || !values.some((x) => String(x) === retyped))
      return `: one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
  }
  const numeric = types.includes('integer') || types.includes('number');
  if (typeof v === 'string' && numeric && PLAIN_NUMBER.test(v)) return `: send ${v}, not "${v}"`;
  if (typeof v === 'number' && Number.isFinite(v) && types.includes('string') && !numeric)
    return `: send "${String(v)}", not ${String(v)}`;
  return '';
}

/** Whether a value has one of `types` (jsonTypeOk), as one function: a single type's own test. */
function typeTest(types: readonly string[]): (v: unknown) => boolean {
  if (types.length === 1) {
    switch (types[0]) {
      case 'string':
        return (v) => typeof v === 'string';
      case 'integer':
        return (v) => typeof v === 'number' && Number.isSafeInteger(v);
      case 'boolean':
        return (v) => typeof v === 'boolean';
      default: {
        const t = types[0];
        return (v) => jsonTypeOk(v, t);
      }
    }
  }
  return (v) => {
    for (let i = 0; i < types.length; i++) if (jsonTypeOk(v, types[i])) return true;
    return false;
  };
}

// ---------------------------------------------------------------- query numbers

/** A decimal query number: the integer syntax with an optional fraction. */
const STRICT_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * The validator would coerce any text JavaScript reads as a number ("0x10", "1e1", "+5",
 * " 1 ", "Infinity", "1e309"), so every query or path parameter declared integer (or number) is
 * checked against the strict syntax first (schemas.ts STRICT_INTEGER; integers must also be
 * safe integers). A failure is a validation error of that parameter, answered in the route's
 * error style (1001, 6000-range or 7000); on a route that attaches validation errors (klines)
 * it is attached for the handler to word, as the validator's own would be.
 */
export function installStrictQueryNumbers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as
      | { querystring?: { properties?: Record<string, object> }; params?: { properties?: Record<string, object> } }
      | undefined;
    // (objects read by an index loop: destructuring a tuple per parameter made an iterator per
    // parameter and request, on every signed order)
    const checked: Array<{ where: 'params' | 'querystring'; name: string; integer: boolean }> = [];
    for (const where of ['params', 'querystring'] as const) {
      for (const [name, p] of Object.entries(schema?.[where]?.properties ?? {})) {
        const types = declaredTypes(p) ?? [];
        if (types.includes('integer')) checked.push({ where, name, integer: true });
        else if (types.includes('number')) checked.push({ where, name, integer: false });
      }
    }
    if (checked.length === 0) return;
    const attach = route.attachValidation === true;
    const check = syncHook((req) => {
      for (let i = 0; i < checked.length; i++) {
        const { where, name, integer } = checked[i];
        const q = (where === 'params' ? req.params : req.query) as Record<string, unknown> | undefined;
        const v = q?.[name];
        if (typeof v !== 'string') continue;
        const err = integer ? integerTextError(v) : numberTextError(v);
        if (err === undefined) continue;
        const e = queryValidationError(where, name, err);
        if (!attach) return e;
        // (the validator runs after this hook and puts its own error in validationError: "abc"
        // is its bare "must be integer"; attachedValidationError reads this one first)
        (req as { validationError?: Error; [STRICT_ERROR]?: FastifyError })[STRICT_ERROR] = e;
        return undefined;
      }
      return undefined;
    });
    const existing =
      route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation];
    route.preValidation = [...existing, check];
  });
}

const STRICT_ERROR = Symbol('strictQueryNumberError');

/**
 * The validation error a route with `attachValidation` answers: the strict number syntax's
 * (installStrictQueryNumbers) when a parameter failed it, else the validator's, else undefined.
 */
export function attachedValidationError(req: FastifyRequest): FastifyError | undefined {
  return (req as { [STRICT_ERROR]?: FastifyError })[STRICT_ERROR] ?? (req.validationError as FastifyError | undefined);
}

function integerTextError(v: string): string | undefined {
  if (!STRICT_INTEGER.test(v))
    return "must be a whole number written plainly, such as 10 or -3 (no sign '+', exponent, hex, fraction, blanks or leading zeros)";
  if (!Number.isSafeInteger(Number(v))) return 'must be a safe integer (|n| <= 2^53 - 1)';
  return undefined;
}

function numberTextError(v: string): string | undefined {
  if (!STRICT_NUMBER.test(v) || !Number.isFinite(Number(v))) return 'must be a finite decimal number such as 12 or 0.5';
  return undefined;
}

/** An error shaped as the validator's own, so the error handler and the klines routes word it alike. */
function queryValidationError(where: 'params' | 'querystring', name: string, message: string): FastifyError {
  const e = new Error(`${where}/${name} ${message}`) as FastifyError & {
    validation: unknown[];
    validationContext: string;
  };
  e.statusCode = 400;
  e.code = 'FST_ERR_VALIDATION';
  e.validation = [
    {
      keyword: 'type',
      instancePath: `/${name}`,
      schemaPath: `#/properties/${name}/type`,
      params: { type: 'integer' },
      message,
    },
  ];
  e.validationContext = where;
  return e;
}

/**
 * The first key of the sent query or body (the part that failed validation) that its schema does
 * not declare, when that schema refuses any other (additionalProperties false); else undefined.
 */
export function undeclared(err: FastifyError, req: FastifyRequest): string | undefined {
  const part = err.validationContext === 'querystring' ? 'querystring' : err.validationContext === 'body' ? 'body' : '';
  const schemas = req.routeOptions.schema as Record<string, { properties?: object; additionalProperties?: unknown }>;
  const schema = part === '' ? undefined : schemas?.[part];
  const sent: unknown = part === 'body' ? req.body : req.query;
  if (schema?.properties === undefined || schema.additionalProperties !== false) return undefined;
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
  const declared = schema.properties;
  return Object.keys(sent).find((k) => !Object.hasOwn(declared, k));
}
