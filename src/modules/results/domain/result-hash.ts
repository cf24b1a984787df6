import { createHash } from 'node:crypto';
import objectHash from 'object-hash';

/** Thrown inside the fast path for a value that is not plain JSON; the caller then uses object-hash itself. */
class NotJson extends Error {}

// The first of these object-hash meets on any plain object; it then refers to them by their place in `seen`.
const OBJECT_PROTOTYPE = Object.prototype;
const OBJECT_FUNCTION = Object;
// object-hash lists these before every plain object's own keys ("respectType"), and reads them off the object.
const SPECIAL_KEYS = ['prototype', '__proto__', 'constructor'] as const;

/**
 * A number's text exactly as `String(value)` writes it (object-hash's format), without V8's number-to-string cache.
 * `String` and `+` keep each converted double in that cache and allocate its text straight in the old generation, so a
 * result's few hundred key timings became about 20 KB of long-lived objects per submission: a full collection every
 * second under load, and the latency spikes with it. `JSON.stringify` writes a finite number with the same digits
 * (ECMAScript's Number::toString) into its own buffer; NaN and the infinities, which it writes `null`, keep `String`.
 */
function numberText(value: number): string {
  return Number.isFinite(value) ? JSON.stringify(value) : String(value);
}

/** Whether every item is a finite number (a list of key timings): then one `JSON.stringify` writes them all. */
function finiteNumbersOnly(list: unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'number' || !Number.isFinite(item)) return false;
  }
  return true;
}

function isPlainObject(value: object): boolean {
  return (
    Object.getPrototypeOf(value) === OBJECT_PROTOTYPE &&
    Object.prototype.toString.call(value) === '[object Object]'
  );
}

/**
 * object-hash's serialisation (default options) of JSON values, which is all a parsed request body holds, written
 * straight into one string. The library walks every value through a generic dispatcher, a regular expression on
 * `Object.prototype.toString` and a linear search of the objects seen so far; on a result with a few hundred key
 * timings that was the largest cost of a submission after the database.
 */
function serialiseJson(root: object): string {
  const seen = new Map<unknown, number>();
  let out = '';

  const string = (s: string) => {
    out += `string:${s.length}:${s}`;
  };
  const circular = (value: unknown): boolean => {
    const index = seen.get(value);
    if (index === undefined) {
      seen.set(value, seen.size);
      return false;
    }
    string(`[CIRCULAR:${index}]`);
    return true;
  };
  // `Object`, met as the `constructor` of a plain object: a native function, its name, its (no) own keys.
  const objectFunction = () => {
    out += 'fn:';
    string('[native]');
    string('function-name:Object');
    if (!circular(OBJECT_FUNCTION)) out += 'object:0:';
  };
  const dispatch = (value: unknown): void => {
    switch (typeof value) {
      case 'number':
        out += `number:${numberText(value)}`;
        return;
      case 'string':
        string(value);
        return;
      case 'boolean':
        out += `bool:${String(value)}`;
        return;
      case 'undefined':
        out += 'Undefined';
        return;
      case 'function':
        if (value !== OBJECT_FUNCTION) throw new NotJson();
        objectFunction();
        return;
      case 'object':
        break;
      default:
        throw new NotJson();
    }
    if (value === null) {
      out += 'Null';
    } else if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) throw new NotJson();
      if (circular(value)) return;
      out += `array:${value.length}:`;
      if (value.length > 0 && finiteNumbersOnly(value)) {
        // `[a,b,c]` is `a`, `b` and `c` joined by commas, and a number's text holds no comma.
        out += `number:${JSON.stringify(value).slice(1, -1).replaceAll(',', 'number:')}`;
        return;
      }
      for (let i = 0; i < value.length; i++) {
        // object-hash iterates with forEach, which skips holes; JSON has none.
        if (!(i in value)) throw new NotJson();
        dispatch(value[i]);
      }
    } else if (value === OBJECT_PROTOTYPE || isPlainObject(value)) {
      if (circular(value)) return;
      const record = value as Record<string, unknown>;
      const keys = [...SPECIAL_KEYS, ...Object.keys(record).sort()];
      out += `object:${keys.length}:`;
      for (const key of keys) {
        string(key);
        out += ':';
        dispatch(record[key]);
        out += ',';
      }
    } else {
      throw new NotJson();
    }
  };

  dispatch(root);
  return out;
}

/**
 * `object-hash` with its default options (SHA-1, hex), as the original client computes it: the same serialisation,
 * hashed in one go. Plain JSON values take the fast path above; anything else goes through object-hash itself.
 */
export function resultHash(value: unknown): string {
  let serialised: string;
  try {
    if (typeof value !== 'object' || value === null || !isPlainObject(value)) throw new NotJson();
    serialised = serialiseJson(value);
  } catch (e) {
    if (!(e instanceof NotJson)) throw e;
    const parts: string[] = [];
    objectHash.writeToStream(value as object, {}, { write: (chunk: string) => parts.push(chunk) } as never);
    serialised = parts.join('');
  }
  return createHash('sha1').update(serialised, 'utf8').digest('hex');
}
