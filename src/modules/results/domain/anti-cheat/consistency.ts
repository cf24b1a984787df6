import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import type { CheckedResult, Finding } from './checked-result';
import { findInconsistencies } from './consistency-checks';
import { resultFigures } from './result-figures';

// The configuration document is cached and replaced whole on change, so its pattern list is a stable cache key.
const compiled = new WeakMap<readonly string[], RegExp[]>();

function patterns(list: readonly string[]): RegExp[] {
  let found = compiled.get(list);
  if (!found) {
    found = list.flatMap((pattern) => {
      try {
        return [new RegExp(`^(?:${pattern})$`)];
      } catch {
        // A malformed pattern in the configuration matches nothing rather than failing every result.
        return [];
      }
    });
    compiled.set(list, found);
  }
  return found;
}

/** Whether the language is typed through an input method (or auto-indented), per `composedInputLanguages`. */
export function isComposedInput(language: string, config: AntiCheatConfiguration): boolean {
  return patterns(config.composedInputLanguages).some((pattern) => pattern.test(language));
}

/** The consistency checks of a result under the configuration: every contradiction found, in the checks' order. */
export function judgeConsistency(result: Readonly<CheckedResult>, config: AntiCheatConfiguration): Finding[] {
  if (!config.enabled) return [];
  return findInconsistencies({
    result,
    figures: resultFigures(result),
    config,
    composed: isComposedInput(result.language, config),
  });
}
