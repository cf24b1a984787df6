import { plainToInstance } from 'class-transformer';
import { validateStrict } from '../../../../common/validation/strict-validation';
import { formatValidationErrors } from '../../../../common/validation/validation.pipe';
import { CONFIG_KEYS, PartialConfigDto } from '../../../configs/config-schema';
import { PresetConfigDto, SETTING_GROUPS } from '../../../presets/dto/preset.dto';
import type { ConfigRow, PresetRow } from '../import-records';
import { accept, Notes, refuse, type Mapped } from '../mapped';
import { entityId, label } from './user-parts';
import { isPlainObject, millis, objectIdTime, text } from './values';
import { isValidUid } from '../../../../common/auth/uid';

/**
 * The original client upgrades settings saved by its older versions when it loads them (its config `migrate`); the
 * same upgrades run here, so a setting lands in the shape our rules (the same as `PATCH /configs`) accept.
 */
export function upgradeLegacySettings(input: Record<string, unknown>): Record<string, unknown> {
  const c: Record<string, unknown> = { ...input };
  const style = (legacy: string, key: string) => {
    if (c[legacy] === true && c[key] === undefined)
      c[key] =
        c.timerStyle !== 'bar' && c.timerStyle !== 'off' && c.timerStyle !== undefined
          ? c.timerStyle
          : 'mini';
  };
  style('showLiveWpm', 'liveSpeedStyle');
  style('showLiveBurst', 'liveBurstStyle');
  style('showLiveAcc', 'liveAccStyle');
  if (typeof c.soundVolume === 'string') c.soundVolume = parseFloat(c.soundVolume);
  for (const key of ['funbox', 'customLayoutfluid']) {
    const value = c[key];
    if (typeof value === 'string') c[key] = value === 'none' ? [] : value.split('#');
  }
  if (typeof c.indicateTypos === 'boolean') c.indicateTypos = c.indicateTypos ? 'replace' : 'off';
  if (typeof c.fontSize === 'string') {
    const old = c.fontSize;
    c.fontSize = old === '125' ? 1.25 : old === '15' ? 1.5 : parseInt(old, 10);
  } else if (typeof c.fontSize === 'number' && c.fontSize < 0) c.fontSize = 1;
  if (Array.isArray(c.accountChart) && c.accountChart.length !== 4) c.accountChart = ['on', 'on', 'on', 'on'];
  if (typeof c.minAccCustom === 'number' && c.minAccCustom > 100) c.minAccCustom = 100;
  if (Array.isArray(c.customThemeColors) && c.customThemeColors.length === 9) {
    const colors = [...(c.customThemeColors as unknown[])];
    colors.splice(4, 0, '#000000');
    c.customThemeColors = colors;
  }
  if (Array.isArray(c.customBackgroundFilter) && c.customBackgroundFilter.length === 5)
    c.customBackgroundFilter = c.customBackgroundFilter.slice(0, 4);
  if (typeof c.quoteLength === 'number')
    c.quoteLength = c.quoteLength === -1 ? [0, 1, 2, 3] : [c.quoteLength];
  if (typeof c.tapeMargin === 'number') c.tapeMargin = Math.min(90, Math.max(10, c.tapeMargin));
  if (typeof c.maxLineWidth === 'number' && c.maxLineWidth !== 0)
    c.maxLineWidth = Math.min(1000, Math.max(20, c.maxLineWidth));
  if ('keymapShowTopRow' in c && c.keymapKeys === undefined) {
    const row = c.keymapShowTopRow;
    if (row === 'always') c.keymapKeys = 'minimal_numrow';
    else if (row === 'never' || row === 'layout') c.keymapKeys = 'minimal';
    delete c.keymapShowTopRow;
  }
  return c;
}

/**
 * Settings kept under our rules: upgraded first; a key we do not know (the original dropped it) or a value our
 * rules refuse is left out, with its reason. `extra` lets presets keep their tag list.
 */
export function settings(
  raw: Record<string, unknown>,
  path: string,
  notes: Notes,
  dto: typeof PartialConfigDto = PartialConfigDto,
  extra: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const upgraded = upgradeLegacySettings(raw);
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(upgraded)) {
    if (value === undefined) continue;
    if (!CONFIG_KEYS.has(key) && !extra.has(key))
      notes.leftOut(`${path}.${key}`, 'a setting we do not have', value);
    else if (value === null) notes.leftOut(`${path}.${key}`, 'null', value);
    else kept[key] = value;
  }
  const errors = validateStrict(plainToInstance(dto, kept));
  for (const error of errors) {
    notes.leftOut(
      `${path}.${error.property}`,
      formatValidationErrors([error]).join('; '),
      kept[error.property],
    );
    delete kept[error.property];
  }
  return kept;
}

/** `configs { uid, config }`: one per user. */
export function mapConfig(doc: Record<string, unknown>): Mapped<ConfigRow> {
  const uid = text(doc.uid);
  if (uid === undefined || !isValidUid(uid)) return refuse('no valid uid');
  if (!isPlainObject(doc.config)) return refuse('config is not an object');
  const notes = new Notes();
  const config = settings(doc.config, 'config', notes);
  return accept({ uid, config, updated_at: objectIdTime(doc._id) ?? 0 }, notes.list);
}

const PRESET_TAGS = new Set(['tags']);

/** `presets { _id, uid, name, config, settingGroups? }`. */
export function mapPreset(doc: Record<string, unknown>): Mapped<PresetRow> {
  const id = entityId(doc._id);
  if (id === undefined) return refuse('no usable _id');
  const uid = text(doc.uid);
  if (uid === undefined || !isValidUid(uid)) return refuse('no valid uid');
  const notes = new Notes();
  const name = label(doc.name, 'preset');
  if (name !== doc.name) notes.changed('name', `renamed to ${name} (our preset name rule)`, doc.name);
  const config = isPlainObject(doc.config)
    ? settings(doc.config, 'config', notes, PresetConfigDto, PRESET_TAGS)
    : {};
  let groups: string[] | null = null;
  if (Array.isArray(doc.settingGroups) && doc.settingGroups.length > 0) {
    const known = doc.settingGroups.filter((g): g is string =>
      (SETTING_GROUPS as readonly unknown[]).includes(g),
    );
    if (known.length !== doc.settingGroups.length)
      notes.leftOut('settingGroups', 'unknown setting groups', doc.settingGroups);
    groups = known.length > 0 ? [...new Set(known)] : null;
  }
  return accept(
    {
      id,
      uid,
      name,
      config,
      setting_groups: groups,
      created_at: objectIdTime(doc._id) ?? millis(doc.timestamp) ?? 0,
    },
    notes.list,
  );
}
