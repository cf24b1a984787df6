import { s } from '../../config/config-schema';
import { formOf, labelOf } from './configuration-form';

describe('configuration form', () => {
  it.each([
    ['maintenance', 'Maintenance'],
    ['leaderboardExpirationTimeInDays', 'Leaderboard Expiration Time In Days'],
    ['maxMail', 'Max Mail'],
    ['xp', 'Xp'],
  ])('labels %s as %s', (key, label) => {
    expect(labelOf(key)).toBe(label);
  });

  it('describes objects, arrays and leaves with their bounds', () => {
    const schema = s.obj({
      enabled: s.bool(true),
      limits: s.obj({ maxPerUser: s.int(5, 0, 10), ratio: s.num(1.5) }),
      rules: s.arr(s.obj({ language: s.str('', 100) }), [], 20),
      mode: s.oneOf(['disabled', 'enabled'], 'disabled'),
    });
    expect(formOf(schema, 'Server configuration')).toEqual({
      type: 'object',
      label: 'Server configuration',
      fields: {
        enabled: { type: 'boolean', label: 'Enabled' },
        limits: {
          type: 'object',
          label: 'Limits',
          fields: {
            maxPerUser: { type: 'number', label: 'Max Per User', integer: true, min: 0, max: 10 },
            ratio: { type: 'number', label: 'Ratio' },
          },
        },
        rules: {
          type: 'array',
          label: 'Rules',
          maxItems: 20,
          items: {
            type: 'object',
            label: 'Item',
            fields: { language: { type: 'string', label: 'Language', maxLength: 100 } },
          },
        },
        // A choice of fixed strings, as the original's editor has it (its `tribe.mode`).
        mode: { type: 'select', label: 'Mode', options: ['disabled', 'enabled'] },
      },
    });
  });
});
