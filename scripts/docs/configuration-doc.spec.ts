import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { s } from '../../src/config/config-schema';
import { ENV_VARIABLES } from '../../src/config/env-variables';
import {
  CONFIGURATION_DOC,
  environmentTable,
  markdownTable,
  renderConfigurationDoc,
  replaceBetweenMarkers,
  ROOT,
  settingDescriptions,
  settingsTable,
} from './configuration-doc';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:configuration` writes from the code (run it after changing a variable or a setting)', () => {
    const committed = readFileSync(join(ROOT, CONFIGURATION_DOC), 'utf8');
    expect(committed).toBe(renderConfigurationDoc(committed));
  });

  it('names every environment variable and every setting', () => {
    const committed = readFileSync(join(ROOT, CONFIGURATION_DOC), 'utf8');
    for (const name of Object.keys(ENV_VARIABLES)) expect(committed).toContain(`| \`${name}\``);
    for (const path of ['maintenance', 'results.antiCheat.review.ceilings.quote', 'connections.maxPerUser'])
      expect(committed).toContain(`| \`${path}\``);
  });
});

describe('the generated tables', () => {
  it('change when a default, a bound or a description changes in the code', () => {
    const schema = s.obj({ results: s.obj({ maxBatchSize: s.int(1000, 1) }) });
    const described = new Map([['results.maxBatchSize', 'Results per page.']]);
    expect(settingsTable(schema, described)).toContain(
      '| `results.maxBatchSize` | integer ≥ 1 | `1000`  | Results per page. |',
    );
    expect(settingsTable(s.obj({ results: s.obj({ maxBatchSize: s.int(500, 2) }) }), described)).toContain(
      '| `results.maxBatchSize` | integer ≥ 2 | `500`   | Results per page. |',
    );
    expect(
      environmentTable({ PORT: { default: 5005, min: 0, description: 'port the API listens on' } }),
    ).toContain('| `PORT`   | no       | `5005`  | Port the API listens on. Integer, at least 0. |');
    expect(
      environmentTable({ PORT: { default: 8080, min: 1, description: 'port the API listens on' } }),
    ).toContain('| `PORT`   | no       | `8080`  | Port the API listens on. Integer, at least 1. |');
  });

  it('take the descriptions from the comments beside the schema and its interface', () => {
    const descriptions = settingDescriptions();
    expect(descriptions.get('results.antiCheat.speed')).toMatch(/wpm and rawWpm against charStats/);
    expect(descriptions.get('quotes.maxQueuedPerLanguage')).toMatch(/^Pending submissions per language/);
    expect(descriptions.get('maintenance')).toMatch(/503/);
  });

  it('are laid out as prettier lays out a table, pipes escaped', () => {
    expect(markdownTable(['A', 'Long header'], [['`a|b`', 'x']])).toBe(
      ['| A      | Long header |', '| ------ | ----------- |', '| `a\\|b` | x           |'].join('\n'),
    );
  });

  it('go between their markers, which must be there', () => {
    const text =
      'Before\n<!-- BEGIN GENERATED x: npm run docs:configuration writes this table -->\nold\n<!-- END GENERATED x -->\nAfter\n';
    expect(replaceBetweenMarkers(text, 'x', 'new')).toBe(
      'Before\n<!-- BEGIN GENERATED x: npm run docs:configuration writes this table -->\n\nnew\n\n<!-- END GENERATED x -->\nAfter\n',
    );
    expect(() => replaceBetweenMarkers('no markers', 'x', 'new')).toThrow(/needs the markers/);
  });
});
